// Serves the built app. Every non-API GET that is not a file gets index.html (see
// `spaFallback`), so client routes such as /users load the app; /api/... never does.
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HASHED_ASSET } from '../lib/hashedAsset';

export function hasBuiltApp(root: string | null): root is string {
  return root !== null && existsSync(path.join(root, 'index.html'));
}

async function spaPlugin(app: FastifyInstance, { root }: { root: string }) {
  await app.register(fastifyStatic, {
    root,
    index: ['index.html'],
    cacheControl: false,
    // The build's `.br` / `.gz` copies (server/lib/precompressed.ts) to browsers that accept
    // them; the file itself otherwise, or where the build has none.
    preCompressed: true,
    setHeaders(reply, filePath) {
      // Hashed build files never change; everything else (index.html, sw.js, translations) must revalidate.
      const served = filePath.replace(/\.(br|gz)$/, '');
      reply.header('Cache-Control', HASHED_ASSET.test(served) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
}

export default fp(spaPlugin, { name: 'spa' });

/** A file of the build by its address: its own folder, or a file name's extension. The app's
 * routes have neither. */
const BUILD_FILE = /^\/assets\/|\.(?:js|mjs|css|map|json|png|webp|svg|ico|woff2?|webmanifest|txt)$/i;

/** True when this unmatched request should get the app's index.html. A file of the build that
 * is not there never does: answered with the page, a script asked by a page of another release
 * (a rolling update) fails on its type, and the service worker would keep the page as that file
 * for good (its name is its revision), so the app would not start offline. */
export function wantsApp(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0] ?? '';
  return request.method === 'GET' && !pathname.startsWith('/api/') && pathname !== '/api' && !BUILD_FILE.test(pathname);
}

export function sendApp(reply: FastifyReply) {
  return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
}
