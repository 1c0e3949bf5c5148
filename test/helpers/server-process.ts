// The server as `npm start` runs it (`server/main.ts`), in a process of its own: a test can see it
// crash (the child exits) without losing its own worker.
import { spawn, type ChildProcess } from 'node:child_process';
import { ADMIN } from './server';

export interface ServerProcess {
  url: string;
  process: ChildProcess;
  alive(): boolean;
  /** Its last 200 log lines, to explain a failure. */
  log(): string;
  /** Resolves at the first log line (from now on) that matches `pattern`: a test waits for what
   * the server says it does (e.g. "shutting down") instead of sleeping. */
  logged(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (null after a signal it did not handle) once the process ended. */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  /** The entry file to run instead of `server/main.ts` (a test runs "the next release" with it). */
  entry?: string;
}

/** A stream's chunks as whole lines: a line cut between two chunks is matched whole. */
function byLine(onLine: (line: string) => void): (chunk: Buffer) => void {
  let partial = '';
  return (chunk) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop() ?? '';
    parts.filter(Boolean).forEach(onLine);
  };
}

/** Starts the API (no built app) on a free port against `databaseUrl`, with `ADMIN` as administrator. */
export async function startServerProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
  { entry = 'server/main.ts' }: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const lines: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_USERNAME: ADMIN.userName,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: 'server-process-test-secret-of-32-bytes-or-more',
      STATIC_DIR: '/nonexistent', // API only
      LOG_LEVEL: 'info', // the line that says it is ready, with its port
      SHUTDOWN_DRAIN_SECONDS: '0', // tests that stop a process want it gone; a drain test sets its own
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (line: string) => {
    lines.push(line);
    lines.splice(0, Math.max(0, lines.length - 200));
    watchers.forEach((watch) => watch(line));
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.stderr?.on('data', byLine(keep));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on(
      'data',
      byLine((line) => {
        keep(line);
        const ready = /"port":(\d+).*ICRS is ready/.exec(line);
        if (ready) resolve(Number(ready[1]));
      }),
    );
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${lines.join('\n')}`)));
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    alive,
    log: () => lines.join('\n'),
    logged: (pattern, timeoutMs = 20_000) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          watchers.delete(watch);
          reject(new Error(`no log line matching ${pattern} within ${timeoutMs} ms:\n${lines.join('\n')}`));
        }, timeoutMs);
        const watch = (line: string) => {
          if (!pattern.test(line)) return;
          clearTimeout(timer);
          watchers.delete(watch);
          resolve(line);
        };
        watchers.add(watch);
      }),
    exited,
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}
