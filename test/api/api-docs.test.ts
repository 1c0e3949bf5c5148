// /api/docs (the OpenAPI description): every route says what it answers, and the version is the
// package's own.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverEntities } from '../../schemas/index';
import { startTestServer, type TestServer } from '../helpers/server';

const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

describe('/api/docs', () => {
  let t: TestServer;
  let docs: { info: { version: string }; paths: Record<string, Record<string, Operation>> };
  beforeAll(async () => {
    t = await startTestServer();
    docs = (await t.api('GET', '/docs')).body;
  });
  afterAll(() => t?.close());

  it('takes its version from package.json', () => {
    expect(docs.info.version).toBe(version);
  });

  it('describes the answer of every route', () => {
    const operations = Object.entries(docs.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, op })),
    );
    expect(operations.length).toBeGreaterThan(100);
    const missing = operations
      .filter(({ op }) => {
        const answers = Object.entries(op.responses ?? {}).filter(([status]) => status !== '204');
        if (!answers.length) return !op.responses?.['204'];
        return answers.some(([, answer]) => !Object.values(answer.content ?? {}).some((media) => media.schema));
      })
      .map(({ route }) => route);
    expect(missing).toEqual([]);
  });

  it('is complete in docs/api.md: every route named there', () => {
    const documented = documentedCalls(readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8'));
    // Longest first: a profile's sub-records live under the profile's own path.
    const rests = serverEntities.flatMap((e) => (e.rest ? [e.rest] : [])).sort((a, b) => b.length - a.length);
    const routes = Object.entries(docs.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${normalPath(path)}`),
    );
    const unnamed = routes.filter((route) => {
      if (documented.has(route)) return false;
      // The calls every entity has are named once, with `{rest}` for the entity's path.
      const [method, path] = route.split(' ');
      const rest = rests.find((r) => path === r || path.startsWith(`${r}/`));
      return !rest || !documented.has(`${method} ${normalPath(`{rest}${path.slice(rest.length)}`)}`);
    });
    expect(unnamed).toEqual([]);
  });
});

/** A path as compared: no /api prefix, query string or trailing slash, parameters unnamed. */
function normalPath(path: string): string {
  return path
    .replace(/^\/api(?=\/)/, '')
    .replace(/\?.*$/, '')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/(.)\/$/, '$1');
}

/** The calls docs/api.md names in code spans: `METHOD /path`, and the bare `/path`s after one on
 * the same line (`GET /a`, `/b`: both GET). */
function documentedCalls(markdown: string): Set<string> {
  const calls = new Set<string>();
  for (const line of markdown.split('\n')) {
    let method: string | undefined;
    for (const [, span] of line.matchAll(/`([^`]+)`/g)) {
      const call = /^(GET|POST|PUT|DELETE|PATCH) (\S+)/.exec(span);
      if (call) method = call[1];
      const path = call ? call[2] : /^(\/\S*|\{rest\}\S*)/.exec(span)?.[1];
      if (method && path) calls.add(`${method} ${normalPath(path)}`);
    }
  }
  return calls;
}
