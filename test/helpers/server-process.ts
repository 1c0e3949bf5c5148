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
  stop(): Promise<void>;
}

/** Starts the API (no built app) on a free port against `databaseUrl`, with `ADMIN` as administrator. */
export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const lines: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
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
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 200));
  };
  child.stderr?.on('data', keep);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      keep(chunk);
      const ready = /"port":(\d+)[^\n]*ICRS is ready/.exec(chunk.toString());
      if (ready) resolve(Number(ready[1]));
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready:\n${lines.join('\n')}`)));
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    alive,
    log: () => lines.join('\n'),
    async stop() {
      if (!alive()) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
