// The installation's public settings (GET /api/config, README "Configuration"): set on the
// server, so an organisation changes them without rebuilding the app. Read once per page load
// and kept in storage, so that Contact us still shows the programme's details offline; with
// nothing stored, offline, the footer shows the version only (an external site could not open
// anyway).
import { useEffect, useState } from 'react';
import {
  DEFAULT_LOCK_AFTER_MINUTES,
  isLockAfterMinutes,
  NO_CONTACT,
  type ContactDetails,
  type PublicConfig,
} from '../../../schemas/publicConfig';
import { api } from './api';

export type { ContactDetails, PublicConfig };

const NONE: PublicConfig = { programmeUrl: null, contact: NO_CONTACT, lockAfterMinutes: DEFAULT_LOCK_AFTER_MINUTES };
/** Not one of the session keys of product.md §3: a device setting, kept across sign-outs. */
const STORAGE_KEY = 'publicConfig';

let loading: Promise<PublicConfig> | null = null;

function isWebAddress(value: unknown): value is string {
  return typeof value === 'string' && /^https?:\/\//i.test(value);
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/** Whatever the server or storage holds, as a PublicConfig. */
export function toPublicConfig(value: unknown): PublicConfig {
  if (typeof value !== 'object' || value === null) return NONE;
  const v = value as { programmeUrl?: unknown; contact?: Record<string, unknown> | null; lockAfterMinutes?: unknown };
  const c = typeof v.contact === 'object' && v.contact !== null ? v.contact : {};
  return {
    programmeUrl: isWebAddress(v.programmeUrl) ? v.programmeUrl : null,
    contact: { name: text(c.name), email: text(c.email), phone: text(c.phone), address: text(c.address), hours: text(c.hours) },
    lockAfterMinutes: isLockAfterMinutes(v.lockAfterMinutes) ? v.lockAfterMinutes : DEFAULT_LOCK_AFTER_MINUTES,
  };
}

/** The settings as last heard from the server (kept on the device), without waiting. */
export function storedPublicConfig(): PublicConfig {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? toPublicConfig(JSON.parse(raw)) : NONE;
  } catch {
    return NONE;
  }
}

function store(config: PublicConfig): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(config));
  } catch {
    // Quota or disabled storage: this page load still has it.
  }
}

function loadPublicConfig(): Promise<PublicConfig> {
  loading ??= api
    .get<unknown>('/config', { silent: true })
    .then(({ data }) => {
      const config = toPublicConfig(data);
      store(config);
      return config;
    })
    .catch(() => {
      loading = null; // try again at the next mount (the network may be back)
      return storedPublicConfig();
    });
  return loading;
}

export function usePublicConfig(): PublicConfig {
  const [config, setConfig] = useState<PublicConfig>(storedPublicConfig);
  useEffect(() => {
    let current = true;
    void loadPublicConfig().then((loaded) => current && setConfig(loaded));
    return () => {
      current = false;
    };
  }, []);
  return config;
}
