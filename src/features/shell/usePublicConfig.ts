// The installation's public settings (GET /api/config, README "Configuration"): set on the
// server, so an organisation changes them without rebuilding the app. Read once per page load.
// Offline the call fails quietly and the footer shows the version only: an external site
// could not open anyway.
import { useEffect, useState } from 'react';
import { api } from '../../lib/api';

export interface PublicConfig {
  /** The programme's site; null: the footer has no link. */
  programmeUrl: string | null;
}

const NONE: PublicConfig = { programmeUrl: null };

let loading: Promise<PublicConfig> | null = null;

function isWebAddress(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\//i.test(value);
}

function loadPublicConfig(): Promise<PublicConfig> {
  loading ??= api
    .get<{ programmeUrl?: unknown }>('/config', { silent: true })
    .then(({ data }) => ({ programmeUrl: isWebAddress(data.programmeUrl) ? data.programmeUrl : null }))
    .catch(() => {
      loading = null; // try again at the next mount (the network may be back)
      return NONE;
    });
  return loading;
}

export function usePublicConfig(): PublicConfig {
  const [config, setConfig] = useState<PublicConfig>(NONE);
  useEffect(() => {
    let current = true;
    void loadPublicConfig().then((loaded) => current && setConfig(loaded));
    return () => {
      current = false;
    };
  }, []);
  return config;
}
