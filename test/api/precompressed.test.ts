// The app's files cross the network compressed: the build writes `.br` and `.gz` copies of its
// text files (server/lib/precompressed.ts) and the server sends the one the browser accepts,
// the file itself to a browser that accepts neither, with the same caching either way.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressFolder } from '../../server/lib/precompressed';
import { startTestServer, type TestServer } from '../helpers/server';

// A stand-in for the build, so the test needs no `vite build`.
const staticDir = mkdtempSync(path.join(tmpdir(), 'icrs-precompressed-'));
const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ id: i, name: `Provider ${i}` })))};\n`;
const page = `<!doctype html><html><head><title>ICRS</title></head><body>${'<div id="root"></div>'.repeat(80)}</body></html>`;
const noise = randomBytes(4096).toString('latin1'); // text that does not compress
let t: TestServer;
let compressed = 0;

beforeAll(async () => {
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'index.html'), page);
  writeFileSync(path.join(staticDir, 'assets', 'index-AbCd1234.js'), script);
  writeFileSync(path.join(staticDir, 'assets', 'tiny-AbCd1234.js'), 'export {};');
  writeFileSync(path.join(staticDir, 'assets', 'noise.txt'), noise, 'latin1');
  writeFileSync(path.join(staticDir, 'icon.png'), randomBytes(2048));
  compressed = await precompressFolder(staticDir);
  t = await startTestServer({ config: { staticDir } });
});

afterAll(async () => {
  await t?.close();
  rmSync(staticDir, { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** The answer as it crossed the network: no decoding (fetch would undo the encoding). */
function rawGet(url: string, acceptEncoding?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    get(`${t.url}${url}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

describe('the build compressed', () => {
  it('has a brotli and a gzip copy of each text file worth it, none of small, binary or incompressible ones', () => {
    expect(compressed).toBe(3); // index.html, the script, the noise (tried, not kept)
    for (const file of ['index.html', 'assets/index-AbCd1234.js']) {
      expect(brotliDecompressSync(readCopy(`${file}.br`)).toString()).toBe(file === 'index.html' ? page : script);
      expect(gunzipSync(readCopy(`${file}.gz`)).toString()).toBe(file === 'index.html' ? page : script);
    }
    for (const file of ['assets/tiny-AbCd1234.js', 'assets/noise.txt', 'icon.png']) {
      expect(existsSync(path.join(staticDir, `${file}.br`)), file).toBe(false);
      expect(existsSync(path.join(staticDir, `${file}.gz`)), file).toBe(false);
    }
  });

  it.each([
    ['br', 'gzip, deflate, br', brotliDecompressSync],
    ['gzip', 'gzip, deflate', gunzipSync],
  ] as const)(
    'sends a script in %s to a browser that accepts it, smaller, cached as the file itself',
    async (encoding, accepted, decode) => {
      const answer = await rawGet('/assets/index-AbCd1234.js', accepted);
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers['content-type']).toMatch(/javascript/);
      expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expect(answer.body.length).toBeLessThan(script.length / 3);
      expect(decode(answer.body).toString()).toBe(script);
    },
  );

  it('sends the file itself to a browser that accepts no encoding', async () => {
    const answer = await rawGet('/assets/index-AbCd1234.js');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(answer.body.toString()).toBe(script);
  });

  it('sends the app page compressed at its address and at a client route, never cached for long', async () => {
    for (const url of ['/', '/serviceproviders/add']) {
      const answer = await rawGet(url, 'gzip, br');
      expect(answer.status, url).toBe(200);
      expect(answer.headers['content-encoding'], url).toBe('br');
      expect(answer.headers['content-type'], url).toMatch(/text\/html/);
      expect(answer.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(answer.body).toString(), url).toBe(page);
    }
  });

  it('sends a file without a copy as it is, whatever the browser accepts', async () => {
    const answer = await rawGet('/assets/tiny-AbCd1234.js', 'gzip, br');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString()).toBe('export {};');
  });
});

function readCopy(file: string): Buffer {
  return readFileSync(path.join(staticDir, file));
}
