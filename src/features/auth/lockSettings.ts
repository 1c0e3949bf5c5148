// The idle lock's delay: the installation's setting (GET /api/config), kept on the device for
// offline starts.
import { usePublicConfig } from '../../lib/publicConfig';

const DEFAULT_LOCK_AFTER_MINUTES = 15;

export function useLockMinutes(): number {
  const config = usePublicConfig() as { lockAfterMinutes?: number };
  return config.lockAfterMinutes ?? DEFAULT_LOCK_AFTER_MINUTES;
}
