// The PostgreSQL client programs a backup and a restore run (pg_dump, pg_restore): found on the
// PATH, given the database without its password on the command line (any user of the machine
// can read a process's arguments; PGPASSWORD stays in its environment), their failure told in
// their own words.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
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

/** Runs `tool` to its end; a non-zero exit becomes an error carrying the tool's last words. */
export function runTool(tool: PgTool, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ToolOutput> {
  const executable = findTool(tool, env.PATH ?? process.env.PATH);
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) => reject(new OperatorError(`${tool} could not be run: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve({ stdout: Buffer.concat(stdout), stderr });
      const said = stderr.trim().split('\n').filter(Boolean).slice(-3).join(' ');
      reject(new OperatorError(`${tool} failed (${signal ?? `exit code ${code}`}): ${said || 'no message'}`));
    });
  });
}
