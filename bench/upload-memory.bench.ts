// Server memory under concurrent uploads at the size limit (ADR-0010):
// `npx tsx bench/upload-memory.bench.ts`. Starts the server as a child process (on a scratch
// PostgreSQL database when BENCH_DATABASE_URL is set, else on embedded PGlite in a temporary
// folder: in-memory PGlite would count the stored images as server memory), then sends BENCH_UPLOADS (default 20) multipart PUTs at once, each with
// three images of exactly MAX_IMAGE_BYTES (a job's three slots, every file at the limit), and
// BENCH_UPLOADS oversize ones (a 50 MB file) that must be refused while they stream.
// Prints the server's resident memory (VmRSS, and the peak VmHWM) before and after.
// BENCH_SERVER_DIR runs the server of another checkout (to measure before a change).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sampleBody } from '../schemas/derive/sample';
import { job, MAX_IMAGE_BYTES } from '../schemas/index';
import { createScratchDatabase, type ScratchDatabase } from '../test/helpers/db';
import { PNG_1PX } from '../test/helpers/records';
import { withResults } from './results';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 20);
const SERVER_DIR = path.resolve(process.env.BENCH_SERVER_DIR ?? '.');
const PORT = 18000 + Math.floor(Math.random() * 1000);
const BASE = `http://127.0.0.1:${PORT}/api`;
const ADMIN = { userName: 'admin', password: 'bench-admin-password' };

function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function call(method: string, apiPath: string, token?: string, body?: unknown) {
  const response = await fetch(`${BASE}${apiPath}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${apiPath}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function waitForServer() {
  for (let i = 0; i < 3000; i++) {
    try {
      if ((await fetch(`${BASE}/health`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the server did not start');
}

/** An image of exactly `size` bytes that sniffs as PNG. */
function pngOf(size: number): Blob {
  const data = Buffer.alloc(size, 0x41);
  PNG_1PX.copy(data);
  return new Blob([new Uint8Array(data)]);
}

async function upload(token: string, id: string, files: Record<string, Blob>): Promise<number> {
  const form = new FormData();
  for (const [slot, blob] of Object.entries(files)) form.append(slot, blob, `${slot}.png`);
  try {
    const response = await fetch(`${BASE}/jobs/${id}`, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: form });
    await response.text();
    return response.status;
  } catch {
    return 0; // connection closed by the server after refusing the body
  }
}

async function main() {
  let scratch: ScratchDatabase | undefined;
  if (process.env.BENCH_DATABASE_URL) {
    process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
    scratch = await createScratchDatabase();
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'icrs-upload-bench-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url ?? '',
      LOG_LEVEL: 'error',
      ADMIN_USERNAME: ADMIN.userName,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: 'bench-secret-long-enough-for-32-bytes',
      STATIC_DIR: '/nonexistent',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pid = server.pid as number;
  try {
    await waitForServer();
    const admin = (await call('POST', '/login', undefined, ADMIN)).result.user.token as string;
    await call('POST', '/users/', admin, {
      userName: 'writer',
      password: 'writer-password',
      fullName: 'Bench Writer',
      role: 3,
      location: 1,
    });
    const token = (await call('POST', '/login', undefined, { userName: 'writer', password: 'writer-password' })).result.user
      .token as string;
    const ids: string[] = [];
    for (let i = 0; i < UPLOADS; i++) {
      const body = sampleBody(job);
      await call('POST', '/jobs/', token, body);
      ids.push(String(body[job.keyFields[0]]));
    }
    // Warm-up: one upload at the limit, so the baseline includes a first use of every path.
    const atLimit = pngOf(MAX_IMAGE_BYTES);
    await upload(token, ids[0], { jb_img1: atLimit });
    const before = memoryOf(pid);

    const started = Date.now();
    const statuses = await Promise.all(ids.map((id) => upload(token, id, { jb_img1: atLimit, jb_img2: atLimit, jb_img3: atLimit })));
    const atLimitMs = Date.now() - started;
    const afterAtLimit = memoryOf(pid);

    const oversize = pngOf(50 * 1024 * 1024);
    const refused = await Promise.all(ids.map((id) => upload(token, id, { jb_img1: oversize })));
    const after = memoryOf(pid);

    const ok = statuses.filter((s) => s === 200).length;
    const refusedOk = refused.filter((s) => s === 413 || s === 0).length;
    console.log(`# upload_memory: database ${scratch ? 'PostgreSQL' : 'PGlite (files)'}`);
    console.log(`upload_memory.concurrent_uploads: ${UPLOADS} count`);
    console.log(`upload_memory.upload_size_at_limit: ${((3 * MAX_IMAGE_BYTES) / 1024 / 1024).toFixed(0)} MB`);
    console.log(`upload_memory.accepted_at_limit: ${ok} count`);
    console.log(`upload_memory.oversize_refused: ${refusedOk} count`);
    console.log(`upload_memory.at_limit_ms: ${atLimitMs} ms  (${UPLOADS} uploads at the limit)`);
    console.log(`upload_memory.rss_before: ${before.rss.toFixed(0)} MB`);
    console.log(`upload_memory.peak_rss_before: ${before.peak.toFixed(0)} MB`);
    console.log(`upload_memory.rss_after_at_limit: ${afterAtLimit.rss.toFixed(0)} MB`);
    console.log(`upload_memory.peak_rss_after_at_limit: ${afterAtLimit.peak.toFixed(0)} MB`);
    console.log(`upload_memory.peak_rss_after_oversize: ${after.peak.toFixed(0)} MB`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

await withResults('upload-memory', main);
