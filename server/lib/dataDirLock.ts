// One process at a time on an embedded database folder (DATA_DIR). PGlite has no lock of its
// own: a second process opening the folder works on its own copy in memory and writes over the
// first one's files, so the running server never sees what the second wrote (issue 10 §8).
// The holder writes its PID into DATA_DIR/LOCK_FILE and removes it when it exits; a lock
// whose process is gone (killed, power cut) is taken over.
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'icrs.lock';

interface LockContent {
  pid: number;
  /** What holds the folder: 'the ICRS server', 'the demo seed'. */
  holder: string;
  since: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockContent,
  ) {
    super(
      `The data folder ${dataDir} is in use by ${owner.holder} (process ${owner.pid}, since ${owner.since}).\n` +
        'Stop it first (Ctrl-C where it runs), then try again. ' +
        `If no such process runs, delete ${path.join(dataDir, LOCK_FILE)}.`,
    );
    this.name = 'DataDirBusyError';
  }
}

/** True when `pid` is a live process (signal 0 tests without sending anything). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, but another user's
  }
}

function readLock(file: string): LockContent | null {
  try {
    const content = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockContent>;
    return Number.isInteger(content.pid) ? (content as LockContent) : null;
  } catch {
    return null; // gone meanwhile, or half written by a process that died: not a live holder
  }
}

function removeIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Takes the folder for this process until it exits, or throws DataDirBusyError when a live
 * process holds it. `memory://` and other URLs hold no folder. Returns the release function
 * (also run at exit).
 */
export function holdDataDir(dataDir: string, holder: string): () => void {
  if (dataDir.includes('://')) return () => undefined;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // the server's own (docs/security.md "Operations")
  const file = path.join(dataDir, LOCK_FILE);
  const mine: LockContent = { pid: process.pid, holder, since: new Date().toISOString() };
  // Written aside, then linked in: link() fails when the lock exists, and the lock is never seen
  // half written.
  const draft = `${file}.${process.pid}`;
  writeFileSync(draft, JSON.stringify(mine), { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt += 1) {
      try {
        linkSync(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = readLock(file);
        if (owner && owner.pid !== process.pid && isAlive(owner.pid)) throw new DataDirBusyError(dataDir, owner);
        if (attempt > 0) throw error; // another process is taking it at this very moment
        removeIfThere(file); // its process is gone: take it over
      }
    }
  } finally {
    removeIfThere(draft);
  }

  const release = () => {
    process.removeListener('exit', release);
    if (readLock(file)?.pid === process.pid) removeIfThere(file);
  };
  process.on('exit', release);
  return release;
}
