// The server as an operator runs it (ADR-0014): `npm start` stops entirely on SIGINT or
// SIGTERM (nothing of its process group stays, the port is free), and an embedded database
// folder that a running server holds is refused — to the demo seed and to a second server —
// with a clear message, until that server has stopped. The folder's lock is released by the
// operating system when its holder dies (docs/adr/0014-database-and-migrations.md "The data folder's lock"): a
// SIGKILLed server, a holder left as a zombie, or a lock file naming some other live process
// never keep the next start out.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../server/lib/dataDirLock';

const work = mkdtempSync(path.join(tmpdir(), 'icrs-process-'));
const dataDir = path.join(work, 'data');
// A stand-in build: with STATIC_DIR naming it, `npm start` serves it and builds nothing.
const staticDir = path.join(work, 'static');
const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (groupAlive(child.pid as number)) process.kill(-(child.pid as number), 'SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** True while any process of the group `pgid` lives. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function environment(port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    STATIC_DIR: staticDir,
    ADMIN_PASSWORD: 'admin-password-1',
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_SECONDS: '1', // SIGTERM drains first (test/api/drain.test.ts); short here
  };
}

/** `npm start` in a process group of its own (as a terminal runs it), answering on `port`. */
async function npmStart(port: number): Promise<ChildProcess & { output: () => string }> {
  const child = spawn('npm', ['start'], { env: environment(port), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const answers = () =>
    fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
  // A first start makes the database (PGlite's initdb): a minute on a busy machine.
  await expect.poll(answers, { timeout: 150_000, interval: 250 }).toBe(200);
  return Object.assign(child, { output: () => output });
}

/** Sends `signal` to npm alone and waits until its whole group is gone. */
async function stop(child: ChildProcess, signal: NodeJS.Signals, port: number): Promise<void> {
  child.kill(signal);
  await expect.poll(() => groupAlive(child.pid as number), { timeout: 20_000, interval: 100 }).toBe(false);
  await expect(portFree(port)).resolves.toBe(true);
}

const tsx = (script: string, args: string[], port: number) =>
  spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { env: environment(port), encoding: 'utf8', timeout: 90_000 });

/** `server/main.ts` alone (no npm in front: its PID is the server's), in a group of its own. */
function serverMain(port: number): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: environment(port),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return Object.assign(child, { output: () => output });
}

const health = (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/health`).then(
    (r) => r.status,
    () => 0,
  );

/** Waits until the server on `port` answers 200, or says why it stopped. */
async function ready(port: number, child: ChildProcess & { output: () => string }): Promise<void> {
  await expect
    .poll(async () => (child.exitCode !== null ? `exited ${child.exitCode}: ${child.output()}` : await health(port)), {
      timeout: 90_000,
      interval: 250,
    })
    .toBe(200);
}

/** The state letter of /proc/<pid>/stat ('Z' for a zombie), or '' once the process is gone. */
function procState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return '';
  }
}

const seed = (port: number) => tsx('scripts/seed-demo.ts', ['--scale', '0.02'], port);

describe('the server process', () => {
  beforeAll(() => {
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>ICRS</title>');
  });

  it('refuses the folder to the seed and to a second server while one runs; Ctrl-C stops it whole', async () => {
    const port = await freePort();
    const server = await npmStart(port);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);

    const refused = seed(port);
    expect(refused.status, refused.stdout).not.toBe(0);
    expect(refused.stderr).toMatch(/The data folder .* is in use by the ICRS server \(process \d+/);
    expect(refused.stdout).not.toMatch(/Demo data inserted/);

    const second = tsx('server/main.ts', [], await freePort());
    expect(second.status, second.stdout).toBe(1);
    expect(second.stderr).toMatch(/is in use by the ICRS server/);

    await stop(server, 'SIGINT', port);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);

    const seeded = seed(port);
    expect(seeded.status, seeded.stderr).toBe(0);
    expect(seeded.stdout).toMatch(/Demo data inserted into the embedded database/);
  }, 400_000);

  it('stops whole on SIGTERM too, and sees the seeded data', async () => {
    const port = await freePort();
    const server = await npmStart(port);
    const login = await fetch(`http://127.0.0.1:${port}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'admin', password: 'admin-password-1' }),
    });
    const token = ((await login.json()) as { result: { user: { token: string } } }).result.user.token;
    const jobs = await fetch(`http://127.0.0.1:${port}/api/jobs?pageSize=5`, { headers: { authorization: `Bearer ${token}` } });
    expect(jobs.status).toBe(200);
    expect(((await jobs.json()) as { total: number }).total).toBeGreaterThan(0);
    await stop(server, 'SIGTERM', port);
  }, 250_000);

  it('starts at once after a SIGKILL mid-work, and over a lock file naming a live unrelated process', async () => {
    const port = await freePort();
    const killed = serverMain(port);
    await ready(port, killed);
    // Mid-work: sign-ins in flight (each a password hash and a database write) when it dies.
    const inFlight = Array.from({ length: 5 }, () =>
      fetch(`http://127.0.0.1:${port}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userName: 'admin', password: 'admin-password-1' }),
      }).catch(() => null),
    );
    killed.kill('SIGKILL');
    await Promise.all(inFlight);
    await expect.poll(() => killed.exitCode ?? killed.signalCode, { timeout: 10_000 }).toBe('SIGKILL');
    expect(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).toContain(`"pid":${killed.pid}`); // left behind

    const next = serverMain(port);
    await ready(port, next);
    next.kill('SIGKILL');
    await expect.poll(() => next.signalCode, { timeout: 10_000 }).toBe('SIGKILL');

    // The PID in the file is a live process (as after a reboot that gave it to another program).
    const unrelated = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    started.push(unrelated);
    writeFileSync(
      path.join(dataDir, LOCK_FILE),
      JSON.stringify({ pid: unrelated.pid, holder: 'the ICRS server', since: new Date().toISOString() }),
    );
    const over = serverMain(port);
    await ready(port, over);
    expect(readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')).toContain(`"pid":${over.pid}`);
    expect(procState(unrelated.pid as number)).not.toBe(''); // left alone

    // Two live servers: the second is still refused, naming the first.
    const second = serverMain(await freePort());
    await expect.poll(() => second.exitCode, { timeout: 60_000, interval: 100 }).toBe(1);
    expect(second.output()).toContain(`is in use by the ICRS server (process ${over.pid}, since `);
    await stop(over, 'SIGINT', port);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  }, 300_000);

  it.runIf(process.platform === 'linux')(
    'starts at once over a lock whose holder died and is a zombie nobody reaped',
    async () => {
      const port = await freePort();
      // A parent that never waits for its child: `sh` starts the server, then becomes `sleep`.
      const parent = spawn('sh', ['-c', `"${process.execPath}" --import tsx server/main.ts >/dev/null 2>&1 & echo $!; exec sleep 120`], {
        env: environment(port),
        detached: true,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      started.push(parent);
      const pid = await new Promise<number>((resolve) =>
        parent.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
      );
      await expect.poll(() => health(port), { timeout: 90_000, interval: 250 }).toBe(200);
      process.kill(pid, 'SIGKILL');
      await expect.poll(() => procState(pid), { timeout: 10_000, interval: 50 }).toBe('Z');
      // kill(pid, 0) still answers for a zombie: the old PID lock took it for a live server.
      expect(() => process.kill(pid, 0)).not.toThrow();

      const next = serverMain(port);
      await ready(port, next);
      expect(procState(pid)).toBe('Z'); // still unreaped while the next server runs
      await stop(next, 'SIGINT', port);
    },
    200_000,
  );
});
