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
}

export const NO_CONTACT: ContactDetails = { name: null, email: null, phone: null, address: null, hours: null };
