// product.md §2: an unauthenticated user goes to login with a returnUrl, unless the target is '/' or
// '/temp'. Only addresses of the app itself are accepted back (docs/security.md "Access control, second round"), so a crafted link
// cannot send a freshly signed-in user to another site: the address is parsed against the
// app's origin, as the browser will read it, and kept only when it stays on that origin and
// has no control character (the URL parser drops tabs and line breaks, so `/\t/evil.example`
// would become `//evil.example`, another site).

const PLAIN_LOGIN_TARGETS = ['/', '/temp'];

/** C0 controls, DEL and C1 controls: never in an address the app makes. */
const CONTROL_CHARS = /[\u0000-\u001F\u007F-\u009F]/; // eslint-disable-line no-control-regex -- refusing them is the point

export function loginPathFor(target: string): string {
  const path = target.split('?')[0];
  if (PLAIN_LOGIN_TARGETS.includes(path)) return '/login';
  return `/login?returnUrl=${encodeURIComponent(target)}`;
}

/** The path (with query and fragment) to go to after sign-in: `raw` when it is an address of
 * this app, else '/'. `origin` is the app's (the page's). */
export function safeReturnUrl(raw: string | null, origin: string = globalThis.location?.origin ?? 'http://localhost'): string {
  if (!raw || !raw.startsWith('/') || CONTROL_CHARS.test(raw)) return '/';
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return '/';
  }
  if (url.origin !== new URL(origin).origin || url.pathname === '/login') return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}
