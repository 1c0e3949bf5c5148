// Debian's HAProxy as the README runs it (README "nginx and HAProxy"): deploy/haproxy.cfg, the
// README's own block, rendered with a test's ports and processes' addresses, run in the
// foreground as the current user, and steered through HAProxy's runtime API on a stats socket
// of the test's own (`set server … state maint|ready`, `set server … addr`, `show stat`), the
// way an operator's scripts take a process out of rotation. Used by test/api/deploy-restart.test.ts
// and test/api/multi-process.test.ts.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import path from 'node:path';

export const HAPROXY = '/usr/sbin/haproxy';

/** A deploy file as the README includes it. */
export const deployFile = (name: string) => readFileSync(path.join('deploy', name), 'utf8');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `text` with each `[from, to]` replaced; a `from` the file no longer holds fails the test. */
export function rendered(text: string, replacements: [string, string][]): string {
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`the deploy file no longer holds "${from}"`);
    text = text.replaceAll(from, to);
  }
  return text;
}

/** Runs `command` in the foreground until the test ends; its output is kept for a failure. */
export function run(command: string, args: string[]): { child: ChildProcess; log: () => string } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  return { child, log: () => output };
}

/** The servers of deploy/haproxy.cfg's backend, in order: the first process, the second. */
export const SERVERS = ['icrs1', 'icrs2'] as const;
export type ServerName = (typeof SERVERS)[number];

export interface Haproxy {
  /** deploy/haproxy.cfg's port-80 frontend (the redirect to HTTPS). */
  httpPort: number;
  /** Its port-443 frontend: HTTPS with `pem`, plain HTTP without. */
  frontPort: number;
  process: ChildProcess;
  log(): string;
  /** One command on the runtime API (`level admin`); HAProxy's answer, "" when it has none. */
  command(line: string): Promise<string>;
  /** `show stat`'s row of one server of backend `icrs`, by column name (`status`, `addr`, `stot`, `econ`, `wretr`, `wredis`, …). */
  server(name: ServerName): Promise<Record<string, string>>;
  /** Resolves once HAProxy's health checks have `name` UP (in rotation), within 20 s. */
  up(name: ServerName): Promise<void>;
  /** SIGTERM, then SIGKILL after 5 s; resolves when it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts HAProxy on deploy/haproxy.cfg with `backends` (`127.0.0.1:port` of icrs1 and icrs2), a
 * `global` section of the test's own (logs on stderr, the runtime API's socket in `work`), and
 * `replacements` of the test's own after the addresses, ports and certificate.
 */
export async function startHaproxy(options: {
  work: string;
  backends: [string, string];
  /** Certificate and key in one file: the 443 frontend speaks HTTPS, as in the README. */
  pem?: string;
  replacements?: [string, string][];
}): Promise<Haproxy> {
  const [httpPort, frontPort] = [await freePort(), await freePort()];
  const config = path.join(options.work, 'haproxy.cfg');
  const socket = path.join(options.work, 'haproxy-admin.sock');
  const global = `global\n  maxconn 2000\n  log stderr format raw local0 notice\n  stats socket ${socket} level admin\n\n`;
  writeFileSync(
    config,
    global +
      rendered(deployFile('haproxy.cfg'), [
        ['10.0.0.11:8080', options.backends[0]],
        ['10.0.0.12:8080', options.backends[1]],
        ['bind :80', `bind 127.0.0.1:${httpPort}`],
        options.pem ? ['/etc/haproxy/icrs.pem', options.pem] : ['bind :443 ssl crt /etc/haproxy/icrs.pem', `bind 127.0.0.1:${frontPort}`],
        ...(options.pem ? ([['bind :443', `bind 127.0.0.1:${frontPort}`]] as [string, string][]) : []),
        ...(options.replacements ?? []),
      ]),
  );
  execFileSync(HAPROXY, ['-c', '-q', '-f', config], { timeout: 20_000 });
  const { child, log } = run(HAPROXY, ['-db', '-f', config]);

  const command = (line: string) =>
    new Promise<string>((resolve, reject) => {
      let answer = '';
      const connection = createConnection(socket);
      connection.setEncoding('utf8');
      connection.setTimeout(5_000, () => connection.destroy(new Error(`HAProxy's runtime API: no answer to "${line}" within 5 s`)));
      // Not interactive: HAProxy answers the one command, then closes.
      connection.on('connect', () => connection.write(`${line}\n`));
      connection.on('data', (chunk: string) => (answer += chunk));
      connection.on('end', () => resolve(answer.trim()));
      connection.on('error', reject);
    });
  const server = async (name: ServerName) => {
    const [header = '', ...rows] = (await command('show stat')).split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const row = rows.map((line) => line.split(',')).find((cells) => cells[0] === 'icrs' && cells[1] === name);
    if (!row) throw new Error(`HAProxy's show stat has no server icrs/${name}`);
    return Object.fromEntries(columns.map((column, i) => [column, row[i] ?? '']));
  };
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  // Up when its runtime API answers (or a failure with its log).
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited at start:\n${log()}`);
    const answered = await command('show info').then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`HAProxy's runtime API did not answer within 20 s:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    httpPort,
    frontPort,
    process: child,
    log,
    command,
    server,
    async up(name) {
      const until = Date.now() + 20_000;
      for (let status = ''; status !== 'UP'; status = (await server(name)).status ?? '') {
        if (Date.now() > until) throw new Error(`icrs/${name} not UP within 20 s (${status}):\n${log()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
