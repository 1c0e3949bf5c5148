// The request rules every route shares (issue 10 §5, docs/security.md "Input rules"): a body
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
  limitConcurrentUploads(app);
}
