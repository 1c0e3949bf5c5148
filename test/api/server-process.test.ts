// The server as an operator runs it (issue 10 §8): `npm start` stops entirely on SIGINT or
// SIGTERM (nothing of its process group stays, the port is free), and an embedded database
// folder that a running server holds is refused — to the demo seed and to a second server —
// with a clear message, until that server has stopped.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
});
