// Security headers on every answer, the app's pages and assets as well as the API (ADR-0009,
// docs/security.md "Response headers"): what the browser may load and run, no framing,
// no type sniffing, no referrer leaving the site; and no API answer kept by the browser's cache.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

export interface SecurityHeadersOptions {
  /** MAP_STYLE_URL: a MapLibre style the built app loads instead of the default tiles. */
  mapStyleUrl?: string;
}

/** Where the map fetches from besides the app: the style's origin when one is set; nowhere
 * else by default (the base layer ships with the app, src/components/map/mapStyle.ts). */
export function mapOrigins(mapStyleUrl: string | undefined): string[] {
  if (!mapStyleUrl) return [];
  if (!URL.canParse(mapStyleUrl) || !/^https?:$/.test(new URL(mapStyleUrl).protocol)) {
    throw new Error(`MAP_STYLE_URL must be an http(s) address, not "${mapStyleUrl}"`);
  }
  return [new URL(mapStyleUrl).origin];
}

export function contentSecurityPolicy(options: SecurityHeadersOptions = {}): string {
  const map = mapOrigins(options.mapStyleUrl)
    .map((origin) => ` ${origin}`)
    .join('');
  const directives: Record<string, string> = {
    'default-src': "'self'",
    'script-src': "'self'",
    // MUI styles through emotion, which writes <style> elements at run time without a nonce
    // (a static page served by the service worker offline cannot carry a fresh nonce either).
    'style-src': "'self' 'unsafe-inline'",
    // data: MapLibre's control icons (its CSS); blob: photos picked or kept on the device, and
    // the images MapLibre decodes; the tiles of a map style set by MAP_STYLE_URL.
    'img-src': `'self' data: blob:${map}`,
    'font-src': "'self' data:",
    // The API, the change stream, the bundled base map (same origin), and a MAP_STYLE_URL style's
    // tiles and glyphs.
    'connect-src': `'self'${map}`,
    // The service worker and MapLibre's worker are files of the build (same origin).
    'worker-src': "'self'",
    'manifest-src': "'self'",
    'object-src': "'none'",
    'base-uri': "'self'",
    'form-action': "'self'",
    'frame-ancestors': "'none'",
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

export function securityHeaders(options: SecurityHeadersOptions = {}): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY', // browsers without frame-ancestors
    'Referrer-Policy': 'no-referrer',
    // A staff app holding client data: no page of it belongs in a search engine (ADR-0009;
    // public/robots.txt says the same to crawlers that read it).
    'X-Robots-Tag': 'noindex, nofollow',
  };
}

/** API answers hold client data (records, photos, identity documents, the device secret): the
 * browser's HTTP cache must never keep one (ADR-0020). The app's own files keep their caching
 * (server/plugins/spa.ts). */
export const API_CACHE_CONTROL = 'no-store';

/** Sent on answers to requests that came over HTTPS (directly, or as a trusted proxy says with
 * X-Forwarded-Proto): browsers then refuse plain HTTP to this site for a year (ADR-0009).
 * Never over plain HTTP, where it means nothing and would break a test or LAN install. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** True for an address under /api (the API, its 404s and the change stream). */
export function isApiUrl(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

async function securityHeadersPlugin(app: FastifyInstance, options: SecurityHeadersOptions) {
  const headers = Object.entries(securityHeaders(options));
  // Set on the raw response at the start of every request, so they reach every answer: the
  // routes, the static files, errors and 404s, and the change stream, which writes its own head.
  app.addHook('onRequest', async (request, reply) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    if (request.protocol === 'https') reply.raw.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    if (isApiUrl(request.url)) reply.raw.setHeader('Cache-Control', API_CACHE_CONTROL);
  });
  // A route's own Cache-Control would win over the raw header: the API's is the only one sent.
  app.addHook('onSend', async (request, reply) => {
    if (isApiUrl(request.url)) reply.header('Cache-Control', API_CACHE_CONTROL);
  });
}

export default fp(securityHeadersPlugin, { name: 'security-headers' });
