// The request rules every route shares (ADR-0010, docs/security.md "Input rules"): a body
// is JSON or multipart (415 otherwise), an address carries no control characters (400), and
// multipart uploads take turns so that the memory they use stays bounded.
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';
import { limitConcurrentUploads } from './uploads';

/** Percent-encoded C0 controls, DEL and C1 controls (UTF-8 C2 80..C2 9F), or raw ones. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_IN_URL = /%(?:[01][0-9a-f]|7f|c2%[89][0-9a-f])|[\u0000-\u001f\u007f]/i;

export function installInputRules(app: FastifyInstance) {
  // Fastify parses text/plain by default: a text body would reach a route whose schema is
  // written for `application/json` (content: {...}) and skip its validation. Only JSON
  // (Fastify's parser) and multipart (@fastify/multipart, in the records plugin) are read;
  // any other type, or a body without a type, answers 415.
  app.removeContentTypeParser(['text/plain']);
  app.addHook('onRequest', async (request) => {
    if (CONTROL_IN_URL.test(request.url)) throw new HttpError(400, 'http.badUrl');
  });
  // Validation coerces '1e999' in a query (or 1e999 in JSON) to Infinity, and ajv lets the
  // coerced value through every numeric keyword; no route can use a number that is not finite.
  app.addHook('preHandler', async (request) => {
    const field = nonFinite(request.params) ?? nonFinite(request.query) ?? nonFinite(request.body);
    if (field !== undefined) throw new HttpError(400, 'validation.type', { field, type: 'number' });
  });
  limitConcurrentUploads(app);
}

/** The path of the first number in `value` that is not finite (Infinity, NaN), if any. */
export function nonFinite(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path || 'value';
  if (depth > 8 || value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const found = nonFinite(item, path ? `${path}.${key}` : key, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
