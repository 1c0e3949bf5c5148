// Spec §2: an unauthenticated user goes to login with a returnUrl, unless the target is '/' or
// '/temp'. Only same-origin paths are accepted back, so a crafted link cannot send a freshly
// signed-in user to another site.

const PLAIN_LOGIN_TARGETS = ['/', '/temp'];

export function loginPathFor(target: string): string {
  const path = target.split('?')[0];
  if (PLAIN_LOGIN_TARGETS.includes(path)) return '/login';
  return `/login?returnUrl=${encodeURIComponent(target)}`;
}

export function safeReturnUrl(raw: string | null): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  if (raw === '/login' || raw.startsWith('/login?')) return '/';
  return raw;
}
