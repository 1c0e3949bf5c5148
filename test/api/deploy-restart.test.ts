// The README's deployment as an IT officer runs it (README "nginx and HAProxy"): Debian's nginx
// and HAProxy, configured from deploy/nginx.conf and deploy/haproxy.cfg (the README's own
// blocks: checked equal here), in front of two server processes on one PostgreSQL. Under a
// bounded load (10 writers and 20 readers on kept-alive HTTPS connections, no retry by the
// client) each process in turn gets SIGTERM and is started again: no error answer, no socket
// error, every write answered 2xx is stored once, and a device's change stream through the
// balancer ends with its retry hint and opens again on the process that stays. The files are rendered with this test's
// ports, addresses and self-signed certificate (openssl; HAProxy by test/helpers/haproxy.ts), and HAProxy's check interval 2 s
// becomes 300 ms (its own 2 s check timeout kept) and nginx's fail_timeout 5 s becomes 1 s, with a 4 s drain instead of 8 s,
// so that a run takes seconds.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleBody } from '../../schemas/derive/sample';
import { serviceProvider } from '../../schemas/index';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/db';
import { HAPROXY, deployFile, freePort, rendered, run, startHaproxy as startHaproxyFrom } from '../helpers/haproxy';
import { ADMIN } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';

const NGINX = '/usr/sbin/nginx';
const OPENSSL = '/usr/bin/openssl';
const PROVIDER_KEY = serviceProvider.keyFields[0] as string;
// Three failed checks 300 ms apart must fit in the drain on a loaded machine too (HAProxy's
// checks lag behind their interval there): 4 s, as the README's 8 s leaves 2 s beyond its 6 s.
const DRAIN_SECONDS = '4';
const WRITERS = 10;
const READERS = 20;
const RUNS = 3;

const readme = readFileSync('README.md', 'utf8');

describe("the README's nginx and HAProxy examples", () => {
  it('are the files of deploy/, verbatim', () => {
    const blocks = [...readme.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], text: m[2] }));
    expect(blocks.filter((b) => b.lang === 'nginx').map((b) => b.text)).toEqual([deployFile('nginx.conf')]);
    expect(blocks.filter((b) => b.lang === 'haproxy').map((b) => b.text)).toEqual([deployFile('haproxy.cfg')]);
  });
});

const tools = [NGINX, HAPROXY, OPENSSL].filter((tool) => !existsSync(tool));
if (tools.length && process.env.CI === 'true') throw new Error(`missing on this machine: ${tools.join(', ')} (.ci/run installs them)`);

interface Balancer {
  name: string;
  httpsPort: number;
  httpPort: number;
  /** Resolves once the balancer sends requests to the process on `port` again. */
  backInRotation(port: number): Promise<void>;
  process: ChildProcess;
  log(): string;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A plain GET, answered within 3 s, or 0. */
function probe(url: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 3_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0 }));
  });
}

describe.skipIf(!process.env.TEST_DATABASE_URL || tools.length > 0)(
  'a rolling restart by SIGTERM behind nginx and HAProxy (PostgreSQL)',
  () => {
    const work = mkdtempSync(path.join(tmpdir(), 'icrs-deploy-'));
    const started: ChildProcess[] = [];
    let scratch: ScratchDatabase;
    let db: pg.Client;
    const ports: [number, number] = [0, 0];
    const servers: (ServerProcess | undefined)[] = [undefined, undefined];
    const crt = path.join(work, 'icrs.crt');
    const key = path.join(work, 'icrs.key');
    const pem = path.join(work, 'icrs.pem');

    const startBackend = async (i: 0 | 1) => {
      servers[i] = await startServerProcess(scratch.url, {
        PORT: String(ports[i]),
        SHUTDOWN_DRAIN_SECONDS: DRAIN_SECONDS,
        TRUST_PROXY: '1',
      });
    };

    beforeAll(async () => {
      execFileSync(
        OPENSSL,
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', crt, '-days', '1', '-subj', '/CN=127.0.0.1'],
        {
          stdio: 'ignore',
          timeout: 30_000,
        },
      );
      writeFileSync(pem, readFileSync(crt, 'utf8') + readFileSync(key, 'utf8'));
      scratch = await createScratchDatabase();
      db = new pg.Client({ connectionString: scratch.url });
      await db.connect();
      ports[0] = await freePort();
      ports[1] = await freePort();
      await startBackend(0); // first alone: it migrates
      await startBackend(1);
    }, 90_000);

    afterAll(async () => {
      for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await Promise.all(servers.map((server) => server?.stop()));
      await db?.end();
      await scratch?.drop();
      rmSync(work, { recursive: true, force: true });
    });

    const backends = (): [string, string][] => [
      ['10.0.0.11:8080', `127.0.0.1:${ports[0]}`],
      ['10.0.0.12:8080', `127.0.0.1:${ports[1]}`],
    ];

    async function startHaproxy(): Promise<Balancer> {
      const haproxy = await startHaproxyFrom({
        work,
        backends: [`127.0.0.1:${ports[0]}`, `127.0.0.1:${ports[1]}`],
        pem,
        replacements: [['inter 2s', 'inter 300ms']],
      });
      started.push(haproxy.process);
      return {
        name: 'HAProxy',
        httpPort: haproxy.httpPort,
        httpsPort: haproxy.frontPort,
        process: haproxy.process,
        log: haproxy.log,
        // Its health checks have the process back in rotation (HAProxy's runtime API).
        backInRotation: (port) => haproxy.up(port === ports[0] ? 'icrs1' : 'icrs2'),
      };
    }

    async function startNginx(): Promise<Balancer> {
      const [httpPort, httpsPort] = [await freePort(), await freePort()];
      const prefix = path.join(work, 'nginx');
      mkdirSync(prefix, { recursive: true });
      const site = path.join(prefix, 'icrs.conf');
      writeFileSync(
        site,
        rendered(deployFile('nginx.conf'), [
          ...backends(),
          ['listen 80;', `listen 127.0.0.1:${httpPort};`],
          ['listen 443 ssl', `listen 127.0.0.1:${httpsPort} ssl`],
          ['/etc/ssl/icrs.crt', crt],
          ['/etc/ssl/icrs.key', key],
          ['fail_timeout=5s', 'fail_timeout=1s'], // under the test's 4 s drain, as 5 s is under 8 s
        ]),
      );
      const main = path.join(prefix, 'nginx.conf');
      const temp = (name: string) => `${name}_temp_path ${path.join(prefix, name)};`;
      writeFileSync(
        main,
        `worker_processes 1;\npid ${prefix}/nginx.pid;\nerror_log ${prefix}/error.log warn;\ndaemon off;\nevents { worker_connections 1024; }\n` +
          `http {\n  access_log off;\n  ${temp('client_body')}\n  ${temp('proxy')}\n  ${temp('fastcgi')}\n  ${temp('uwsgi')}\n  ${temp('scgi')}\n  include ${site};\n}\n`,
      );
      const args = ['-p', prefix, '-e', path.join(prefix, 'error.log'), '-c', main];
      execFileSync(NGINX, ['-t', '-q', ...args], { timeout: 20_000 });
      const { child, log } = run(NGINX, args);
      started.push(child);
      return {
        name: 'nginx',
        httpPort,
        httpsPort,
        process: child,
        log: () =>
          log() + (existsSync(path.join(prefix, 'error.log')) ? readFileSync(path.join(prefix, 'error.log'), 'utf8').slice(-5_000) : ''),
        // No active check: a process that answers is in rotation.
        backInRotation: async () => undefined,
      };
    }

    interface Tally {
      requests: number;
      answers: Map<number, number>;
      /** The first body of each error status, to tell the balancer's answer from the app's. */
      errorBodies: Map<number, string>;
      socketErrors: string[];
      writtenKeys: string[];
      /** Change streams that ended with a retry hint (and were opened again). */
      streamsEnded: number;
    }

    /** One request through the balancer on a kept-alive HTTPS connection; never retried. */
    function send(agent: https.Agent, port: number, method: string, apiPath: string, token: string, body?: unknown) {
      return new Promise<{ status: number; text: string }>((resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = https.request(
          {
            host: '127.0.0.1',
            port,
            method,
            path: `/api${apiPath}`,
            agent,
            timeout: 15_000,
            headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
            res.on('error', reject);
          },
        );
        req.on('timeout', () => req.destroy(new Error('no answer within 15 s')));
        req.on('error', reject);
        req.end(payload);
      });
    }

    async function rollingRestarts(balancer: Balancer, run: number): Promise<Tally> {
      const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false, maxSockets: WRITERS + READERS });
      const tally: Tally = { requests: 0, answers: new Map(), errorBodies: new Map(), socketErrors: [], writtenKeys: [], streamsEnded: 0 };
      const login = await send(agent, balancer.httpsPort, 'POST', '/login', '', { userName: ADMIN.userName, password: ADMIN.password });
      expect(login.status, login.text).toBe(200);
      const token = String((JSON.parse(login.text) as { result: { user: { token: string } } }).result.user.token);
      let stopping = false;
      const loop = async (what: string, once: () => Promise<void>) => {
        while (!stopping) {
          try {
            await once();
          } catch (error) {
            tally.socketErrors.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      };
      const count = (status: number, text = '') => {
        if (status >= 400 && !tally.errorBodies.has(status)) tally.errorBodies.set(status, text.slice(0, 300));
        tally.requests += 1;
        tally.answers.set(status, (tally.answers.get(status) ?? 0) + 1);
      };
      const writers = Array.from({ length: WRITERS }, (_, w) =>
        loop(`writer ${w}`, async () => {
          const body = { ...sampleBody(serviceProvider), sp_Name: `${balancer.name} run ${run} writer ${w}` };
          const answer = await send(agent, balancer.httpsPort, 'POST', '/sproviers/', token, body);
          count(answer.status, answer.text);
          if (answer.status >= 200 && answer.status < 300) tally.writtenKeys.push(String(body[PROVIDER_KEY as keyof typeof body]));
        }),
      );
      const readers = Array.from({ length: READERS }, (_, r) =>
        loop(`reader ${r}`, async () => {
          const answer = await send(agent, balancer.httpsPort, 'GET', '/sproviers?pageSize=5', token);
          count(answer.status, answer.text);
        }),
      );
      // A device's change stream (as EventSource does it): when it ends, a new ticket and a new
      // stream after the `retry:` the server sent last; through the balancer, to the process that stays.
      const streamAgent = new https.Agent({ keepAlive: false, rejectUnauthorized: false });
      let openStream: http.ClientRequest | undefined;
      const device = loop('change stream', async () => {
        const ticket = await send(agent, balancer.httpsPort, 'POST', '/sync/ticket', token);
        count(ticket.status, ticket.text);
        if (ticket.status !== 200) return;
        const { ticket: value } = JSON.parse(ticket.text) as { ticket: string };
        const text = await new Promise<string>((resolve, reject) => {
          const path = `/api/sync/stream?ticket=${encodeURIComponent(value)}`;
          openStream = https.get({ host: '127.0.0.1', port: balancer.httpsPort, path, agent: streamAgent }, (res) => {
            count(res.statusCode ?? 0);
            let received = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (received += chunk));
            res.on('end', () => resolve(received));
            res.on('error', (error) => (stopping ? resolve('') : reject(error)));
            // Cut without an end (no retry hint): a failure, never a wait forever.
            res.on('close', () =>
              stopping ? resolve('') : reject(new Error(`the change stream was cut: ${JSON.stringify(received.slice(-200))}`)),
            );
          });
          openStream.on('error', (error) => (stopping ? resolve('') : reject(error)));
        });
        if (stopping) return;
        const retry = /retry: (\d+)\n\n$/.exec(text);
        if (!retry) throw new Error(`the change stream ended without a retry hint: ${JSON.stringify(text.slice(-200))}`);
        tally.streamsEnded += 1;
        await pause(Number(retry[1]));
      });
      try {
        await pause(500);
        for (const i of [0, 1] as const) {
          const old = servers[i] as ServerProcess;
          const steps = [`${balancer.name} run ${run}, process ${i}:`];
          const step = (what: string, since: number) => steps.push(`${what} ${((performance.now() - since) / 1000).toFixed(1)} s`);
          let since = performance.now();
          old.process.kill('SIGTERM');
          expect(await old.exited, `process ${i} exits by itself, cleanly`).toBe(0);
          step('stopped in', since);
          since = performance.now();
          await startBackend(i);
          step('started in', since);
          since = performance.now();
          await balancer.backInRotation(ports[i]);
          step('back in rotation in', since);
          console.info(steps.join(' '));
          await pause(300);
        }
      } finally {
        stopping = true;
        openStream?.destroy();
        await Promise.all([...writers, ...readers, device]);
        agent.destroy();
        streamAgent.destroy();
      }
      return tally;
    }

    // DEPLOY_ONLY=nginx (or HAProxy) runs one balancer only, to look into a failure.
    for (const which of (process.env.DEPLOY_ONLY ? [process.env.DEPLOY_ONLY] : ['HAProxy', 'nginx']) as ('HAProxy' | 'nginx')[]) {
      it(`behind ${which}: port 80 redirects to HTTPS, and ${RUNS} rolling restarts under load give no error answer, no socket error, and store each write once`, async () => {
        const balancer = which === 'HAProxy' ? await startHaproxy() : await startNginx();
        try {
          // Up: both processes answer through it.
          await expect
            .poll(async () => (await probe(`http://127.0.0.1:${balancer.httpPort}/api/health/ready`)).status, {
              timeout: 20_000,
              interval: 100,
            })
            .toBe(301);
          const redirect = await probe(`http://127.0.0.1:${balancer.httpPort}/api/health/ready`);
          expect(redirect.location).toMatch(/^https:\/\/127\.0\.0\.1(:\d+)?\/api\/health\/ready$/);
          for (const port of ports) await balancer.backInRotation(port);

          const figures: string[] = [];
          for (let run = 1; run <= RUNS; run += 1) {
            const runStarted = Date.now();
            const tally = await rollingRestarts(balancer, run);
            const { rows } = await db.query<{ key: string; n: number }>(
              `SELECT "${PROVIDER_KEY}" AS key, count(*)::int AS n FROM "${serviceProvider.table}" WHERE "${PROVIDER_KEY}" = ANY($1::text[]) GROUP BY 1`,
              [tally.writtenKeys],
            );
            const errors = [...tally.answers].filter(([status]) => status >= 400).reduce((sum, [, n]) => sum + n, 0);
            figures.push(
              `${which} run ${run} (${((Date.now() - runStarted) / 1000).toFixed(0)} s): ${tally.requests} requests, answers ${JSON.stringify(Object.fromEntries(tally.answers))}, ` +
                `${errors} error answers ${JSON.stringify(Object.fromEntries(tally.errorBodies))}, ${tally.socketErrors.length} socket errors, ${tally.writtenKeys.length} writes answered 2xx, ${rows.length} stored, ${tally.streamsEnded} change streams ended and reopened`,
            );
            console.info(figures.at(-1));
            expect(tally.socketErrors, `${figures.at(-1)}\n${balancer.log()}`).toEqual([]);
            expect(errors, `${figures.at(-1)}\n${balancer.log()}`).toBe(0);
            expect(tally.writtenKeys.length).toBeGreaterThan(0);
            // Both processes restarted: the stream ended on the one it was on (and again on the
            // other if it reconnected to the second before its restart), each time with its hint.
            expect(tally.streamsEnded, figures.at(-1)).toBeGreaterThanOrEqual(1);
            expect(tally.streamsEnded).toBeLessThanOrEqual(2);
            expect(rows.length).toBe(tally.writtenKeys.length);
            expect(rows.every((row) => row.n === 1)).toBe(true);
          }
        } finally {
          balancer.process.kill('SIGTERM');
          await new Promise((resolve) => (balancer.process.exitCode !== null ? resolve(null) : balancer.process.once('exit', resolve)));
        }
      }, 420_000); // 3 runs of two restarts, each a process start (up to a minute on a loaded machine)
    }
  },
);
