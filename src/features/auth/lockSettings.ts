// The idle lock's delay: the installation's setting (GET /api/config, LOCK_AFTER_MINUTES), kept
// on the device for offline starts.
import { usePublicConfig } from '../../lib/http';

export function useLockMinutes(): number {
  return usePublicConfig().lockAfterMinutes;
}
