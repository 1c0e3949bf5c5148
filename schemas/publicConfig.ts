// The installation's public settings (GET /api/config, README "Configuration"), as the server
// sends them and the app reads them.

/** The programme's contact details of the top bar's "Contact us"; each null when not set. */
export interface ContactDetails {
  name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  hours: string | null;
}

export interface PublicConfig {
  /** The programme's site, linked from the app's footer; null: no link. */
  programmeUrl: string | null;
  contact: ContactDetails;
  /** Minutes without use after which the app locks the device's data until the user unlocks it
   * (ADR-0020); 0: never. LOCK_AFTER_MINUTES, an integer 0..MAX_LOCK_AFTER_MINUTES. */
  lockAfterMinutes: number;
}

export const DEFAULT_LOCK_AFTER_MINUTES = 15;
/** One day: a longer wait is no lock. */
export const MAX_LOCK_AFTER_MINUTES = 1440;

/** True for a valid lockAfterMinutes (the server's setting, the app's stored copy). */
export const isLockAfterMinutes = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_LOCK_AFTER_MINUTES;

export const NO_CONTACT: ContactDetails = { name: null, email: null, phone: null, address: null, hours: null };
