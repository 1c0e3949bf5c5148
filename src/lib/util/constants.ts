// Business constants of product.md §9 and the few fixed addresses of the product, in one place so that
// a change (programme site, support mailbox, delays) never hunts through components.

/** Version shown in the footer, taken from package.json at build time. Node scripts that import
 * the app's modules without Vite (the upload bench under tsx) have no build: 'dev'. */
export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';

/** At this width and below the sidebar is a temporary drawer (product.md §9: 991 px). */
export const NARROW_MAX_WIDTH = 991;
export const WIDE_MEDIA_QUERY = `(min-width:${NARROW_MAX_WIDTH + 1}px)`;

export const LOGOUT_RELOAD_DELAY_MS = 200;
export const UPDATE_CHECK_DELAY_MS = 300;
/** The first pause before the service worker is registered again after its first install
 * failed (UpdatePrompt.tsx); it doubles at each failure, up to hourly. */
export const INSTALL_RETRY_FIRST_MS = 10_000;
export const PENDING_STATS_DELAY_MS = 500;
export const SW_REGISTER_TIMEOUT_MS = 30_000;
export const TOAST_DURATION_MS = 5000;

/** Roles that can reset another user's password (product.md §6 readings, product.md §D4). */
export const PASSWORD_RESET_ROLES = [1, 7] as const;
