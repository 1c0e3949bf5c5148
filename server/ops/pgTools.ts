// The PostgreSQL client programs a backup and a restore run (pg_dump, pg_restore): found on the
// PATH, given the database without its password on the command line (any user of the machine
// can read a process's arguments; PGPASSWORD stays in its environment), their failure told in
// their own words.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { OperatorError } from './errors';

export type PgTool = 'pg_dump' | 'pg_restore';

/** The full path of `tool` on the PATH, else a refusal that says how to get it. */
export function findTool(tool: PgTool, searchPath = process.env.PATH ?? ''): string {
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, tool);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here: the next folder
    }
  }
  throw new OperatorError(
    `${tool} was not found on the PATH: install the PostgreSQL client programs of the server's major version or newer ` +
      '(Debian and Ubuntu: apt-get install postgresql-client), or add their folder to the PATH',
  );
}

/** `--dbname` without the password, and the environment that carries it. */
export function connectionFor(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return { dbname: databaseUrl, env: process.env }; // a keyword=value string: libpq reads it as it is
  }
  if (!url.password) return { dbname: databaseUrl, env: process.env };
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { dbname: url.toString(), env: { ...process.env, PGPASSWORD: password } };
}

export interface ToolOutput {
  stdout: Buffer;
  stderr: string;
}

/** Where a tool reads and writes, when not its arguments' files. */
export interface ToolIo {
  /** Fed to the tool's standard input (a decrypted backup); its failure is the run's failure. */
  stdin?: Readable;
  /** The tool's standard output: a file descriptor it writes to itself (a file opened 0600
   * before it starts), or a sink that consumes it as a stream (the cipher). Collected otherwise. */
  stdout?: number | ((output: Readable) => Promise<void>);
  /** Reads `stdin` to its end even when the tool stops early, so that a file cut short or
   * altered anywhere fails the run (a restore checks the whole file before it changes anything). */
  readAllInput?: boolean;
}

/** Runs `tool` to its end; a non-zero exit becomes an error carrying the tool's last words. A
 * failure of its input or output stream wins over the tool's own complaint about it. */
export function runTool(tool: PgTool, args: readonly string[], env: NodeJS.ProcessEnv = process.env, io: ToolIo = {}): Promise<ToolOutput> {
  const executable = findTool(tool, env.PATH ?? process.env.PATH);
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, {
      env,
      stdio: [io.stdin ? 'pipe' : 'ignore', typeof io.stdout === 'number' ? io.stdout : 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    let streamFailure: unknown;
    let inputRead = Promise.resolve();
    const fail = (error: unknown) => {
      streamFailure ??= error;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    };
    if (io.stdin && child.stdin) {
      const input = child.stdin;
      input.on('error', () => undefined); // EPIPE: the tool read what it needed and left
      io.stdin.once('error', (error) => {
        fail(error);
        input.destroy(); // the tool sees the end of its input and stops, rather than waiting
      });
      const source = io.stdin;
      if (io.readAllInput) {
        inputRead = new Promise<void>((done) => source.once('end', done).once('error', () => done()));
        child.once('close', () => {
          source.unpipe(input);
          source.resume(); // the rest, read and dropped: its errors are recorded above
        });
      } else child.once('close', () => source.destroy());
      source.pipe(input);
    }
    const sink = typeof io.stdout === 'function' && child.stdout ? io.stdout(child.stdout).catch(fail) : Promise.resolve();
    if (!io.stdout) child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) => reject(new OperatorError(`${tool} could not be run: ${error.message}`)));
    child.once('close', (code, signal) => {
      void Promise.all([sink, inputRead]).then(() => {
        if (streamFailure) return reject(streamFailure);
        if (code === 0) return resolve({ stdout: Buffer.concat(stdout), stderr });
        const said = stderr.trim().split('\n').filter(Boolean).slice(-3).join(' ');
        reject(new OperatorError(`${tool} failed (${signal ?? `exit code ${code}`}): ${said || 'no message'}`));
      });
    });
  });
}
