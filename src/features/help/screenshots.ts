// The help pages' screenshots: made by scripts/help-screenshots.ts from the running app and
// stored as public/help/{lang}/{name}.webp (committed; precached by the PWA, so the help shows
// them offline too). One list for the script and the pages.

export interface HelpScreenshot {
  name: string;
  /** Where the script photographs it. */
  path: string;
  signedIn: boolean;
  /** A step before the picture: open the menu, or start in offline mode. */
  prepare?: 'openSidebar' | 'offline';
}

/** Width of the stored images, in pixels (the help column is narrower on most screens). */
export const HELP_IMAGE_WIDTH = 880;
/** Their height for that width (the script's 1100 × 680 window). */
export const HELP_IMAGE_HEIGHT = 544;

export const HELP_SCREENSHOTS: readonly HelpScreenshot[] = [
  { name: 'login', path: '/login', signedIn: false },
  { name: 'home', path: '/', signedIn: true },
  { name: 'menu', path: '/', signedIn: true, prepare: 'openSidebar' },
  { name: 'providers', path: '/serviceproviders', signedIn: true },
  { name: 'provider-form', path: '/serviceproviders/add', signedIn: true },
  { name: 'jobs', path: '/availablejobs', signedIn: true },
  { name: 'clients', path: '/profiles', signedIn: true },
  { name: 'referrals', path: '/referral', signedIn: true },
  { name: 'reports', path: '/reports', signedIn: true },
  { name: 'offline-home', path: '/offlinehp', signedIn: true, prepare: 'offline' },
  { name: 'users', path: '/users', signedIn: true },
  { name: 'change-password', path: '/users/chngpas', signedIn: true },
  { name: 'lists', path: '/lists', signedIn: true },
];

export function screenshotUrl(lang: string, name: string): string {
  return `/help/${lang}/${name}.webp`;
}
