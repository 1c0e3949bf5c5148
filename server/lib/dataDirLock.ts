// One process at a time on an embedded database folder (DATA_DIR). PGlite has no lock of its
// own: a second process opening the folder works on its own copy in memory and writes over the
// first one's files, so the running server never sees what the second wrote (ADR-0014).
//
// The lock is one the operating system releases when its holder dies (docs/adr/0014-database-and-migrations.md "The
// data folder's lock"): a listening socket named after the folder. Binding the name fails with
// EADDRINUSE while a live process holds it; the kernel frees it when the holder's descriptors
// close — on exit, on SIGKILL, on a power cut, and already while the dead holder is a zombie
// nobody has reaped. A PID in a file cannot tell any of that (a zombie and a reused PID both
// answer kill(pid, 0)).
// - Linux: a socket in the abstract namespace, `\0icrs-<sha256 of the folder's real path>`.
// - Windows: a named pipe of the same name, which behaves the same way.
// - Elsewhere (macOS, BSD): a socket file in the folder. connect() tells a live holder (it
//   answers) from one that died (ECONNREFUSED: the file is removed and taken).
// DATA_DIR/LOCK_FILE still names the holder (pid, what, since) for the refusal's message; it is
// never read to decide.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import path from 'node:path';

export const LOCK_FILE = 'icrs.lock';
/** The socket file on systems with neither abstract sockets nor named pipes. */
export const LOCK_SOCKET = 'icrs.sock';

interface LockContent {
  pid: number;
  /** What holds the folder: 'the ICRS server', 'the demo seed'. */
  holder: string;
  since: string;
}

export class DataDirBusyError extends Error {
  /** The holder as its info file names it, or null when the file is missing or unreadable. */
  readonly owner: LockContent | null;

  constructor(
    readonly dataDir: string,
    owner: LockContent | null,
  ) {
    super(`The data folder ${dataDir} is in use by ${describeOwner(owner)}.\n` + 'Stop it first (Ctrl-C where it runs), then try again.');
    this.name = 'DataDirBusyError';
    this.owner = owner;
  }

  /** "the ICRS server (process 123, since …)", for the callers' own messages. */
  get holder(): string {
    return describeOwner(this.owner);
  }
}

function describeOwner(owner: LockContent | null): string {
  return owner ? `${owner.holder} (process ${owner.pid}, since ${owner.since})` : 'another ICRS process';
}

function readLock(file: string): LockContent | null {
  try {
    const content = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockContent>;
    return Number.isInteger(content.pid) && typeof content.holder === 'string' ? (content as LockContent) : null;
  } catch {
    return null; // gone meanwhile, or half written by a process that died
  }
}

function removeIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Where the lock's socket listens for `folder` (a real path) on this system. */
function socketPath(folder: string): { path: string; file: boolean } {
  const name = `icrs-${createHash('sha256').update(folder).digest('hex')}`;
  if (process.platform === 'linux') return { path: `\0${name}`, file: false };
  if (process.platform === 'win32') return { path: `\\\\?\\pipe\\${name}`, file: false };
  return { path: path.join(folder, LOCK_SOCKET), file: true };
}

function listen(where: string): Promise<Server | NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const server = createServer();
    // Nobody has anything to say to the lock: a connection (a probe, or anyone on the machine,
    // as an abstract socket has no file permissions) is closed at once, unread.
    server.maxConnections = 0;
    server.on('connection', (socket) => socket.destroy());
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    server.listen({ path: where, exclusive: true }, () => {
      server.removeAllListeners('error');
      server.on('error', () => undefined); // nothing can fail on a listening socket that accepts nothing
      server.unref(); // the lock alone never keeps the process alive
      resolve(server);
    });
  });
}

/** Whether a process listens on the socket file `where` (a dead holder leaves the file behind). */
function answers(where: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ path: where });
    const done = (alive: boolean) => {
      socket.destroy();
      resolve(alive);
    };
    socket.setTimeout(2_000, () => done(true)); // a listener too busy to accept is alive
    socket.once('connect', () => done(true));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code !== 'ECONNREFUSED' && error.code !== 'ENOENT'));
  });
}

async function takeSocket(where: { path: string; file: boolean }): Promise<Server | null> {
  const first = await listen(where.path);
  if (!(first instanceof Error)) return first;
  if (first.code !== 'EADDRINUSE') throw first;
  if (!where.file || (await answers(where.path))) return null;
  removeIfThere(where.path); // left by a holder that died
  const second = await listen(where.path);
  if (!(second instanceof Error)) return second;
  if (second.code === 'EADDRINUSE') return null; // another process took it at this very moment
  throw second;
}

/**
 * Takes the folder for this process until it exits or calls the returned release, or throws
 * DataDirBusyError when a live process — this one included — holds it. `memory://` and other
 * URLs hold no folder.
 */
export async function holdDataDir(dataDir: string, holder: string): Promise<() => void> {
  if (dataDir.includes('://')) return () => undefined;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // the server's own (docs/security.md "Operations")
  const folder = realpathSync(dataDir);
  const file = path.join(dataDir, LOCK_FILE);
  const where = socketPath(folder);
  const server = await takeSocket(where);
  if (!server) throw new DataDirBusyError(dataDir, readLock(file));

  const mine: LockContent = { pid: process.pid, holder, since: new Date().toISOString() };
  // Written aside, then renamed in: the info file is never seen half written.
  const draft = `${file}.${process.pid}`;
  writeFileSync(draft, JSON.stringify(mine), { mode: 0o600 });
  renameSync(draft, file);

  const release = () => {
    process.removeListener('exit', release);
    const content = readLock(file);
    // This process's, also when a restore moved it here from the staging folder.
    if (content?.pid === process.pid) removeIfThere(file);
    server.close();
    if (where.file) removeIfThere(where.path);
  };
  process.on('exit', release);
  return release;
}
