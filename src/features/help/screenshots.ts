// The help pages' screenshots: made by scripts/help-screenshots.ts from the running app and
// stored as public/help/{lang}/{name}.webp (committed; precached by the PWA, so the help shows
// them offline too). One list for the script and the pages.
import { CLIENTS_PATH } from '../clients/paths';
import { JOBS_PATH } from '../jobs/paths';
import { LISTS_PATH } from '../lists/paths';
import { addProviderPath, PROVIDERS_PATH } from '../providers/paths';
import { REFERRALS_PATH } from '../referrals/paths';
import { userPaths } from '../users/paths';

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
  { name: 'providers', path: PROVIDERS_PATH, signedIn: true },
  { name: 'provider-form', path: addProviderPath, signedIn: true },
  { name: 'jobs', path: JOBS_PATH, signedIn: true },
  { name: 'clients', path: CLIENTS_PATH, signedIn: true },
  { name: 'referrals', path: REFERRALS_PATH, signedIn: true },
  { name: 'reports', path: '/reports', signedIn: true },
  { name: 'offline-home', path: '/offlinehp', signedIn: true, prepare: 'offline' },
  { name: 'users', path: userPaths.list, signedIn: true },
  { name: 'change-password', path: userPaths.changePassword, signedIn: true },
  { name: 'lists', path: LISTS_PATH, signedIn: true },
];

export function screenshotUrl(lang: string, name: string): string {
  return `/help/${lang}/${name}.webp`;
}
