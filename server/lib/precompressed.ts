// Compressed copies of the build's text files (`index-x.js.br`, `index-x.js.gz`) beside them,
// made once when the app is built. The server sends them to browsers that accept them
// (server/plugins/spa.ts, `preCompressed`): a field worker's first load and the service
// worker's precache cross the network at about a quarter of their size (4.3 MB of text → 1.1 MB
// in brotli), and the server does no compression work per request.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text that compresses; images, fonts and the compressed copies themselves do not. */
export const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|webmanifest|txt)$/;
/** Below this, the headers of an encoded answer outweigh what it saves. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])));
  return nested.flat();
}

/** Writes `.br` (best quality: built once, sent many times) and `.gz` copies of one file,
 * each only where it is smaller than the file. */
async function compressFile(file: string): Promise<void> {
  const bytes = await readFile(file);
  const copies: [string, Buffer][] = [
    ['.br', await brotli(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })],
    ['.gz', await gzipAsync(bytes, { level: 9 })],
  ];
  await Promise.all(copies.filter(([, packed]) => packed.length < bytes.length).map(([ext, packed]) => writeFile(file + ext, packed)));
}

/** Compresses every text file of `dir` of at least MIN_BYTES, a few at a time. */
export async function precompressFolder(dir: string): Promise<number> {
  const files: string[] = [];
  for (const file of await filesUnder(dir)) {
    if (COMPRESSIBLE.test(file) && (await stat(file)).size >= MIN_BYTES) files.push(file);
  }
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) await compressFile(file);
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return files.length;
}

/** Vite plugin: compresses the build folder once everything is written, the service worker
 * too (vite-plugin-pwa writes it in its own closeBundle, before this `post` one). */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'icrs-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        if (!error) await precompressFolder(outDir);
      },
    },
  };
}
