// Files only the server's user can read (docs/security.md "Operations"): the embedded database
// holds every client and the audit log, backups the same. Three layers, because each alone
// leaves a gap:
// - the process's umask is 077 from its start (server, backup, restore, seed), so whatever it
//   or a library makes later is private, whatever umask the shell or service manager gave it;
// - folders and files this code makes are given their mode explicitly (0700, 0600);
// - PGlite writes its first data files through Emscripten's NODEFS with mode 0666/0777 set
//   explicitly (a umask does not narrow them), so a data folder is narrowed after it is opened.
// A server refuses to start on a data folder that others can read: it would have been readable
// until now, and saying so is better than fixing it silently.
import { chmodSync, existsSync, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The mask that keeps every new file 0600 and folder 0700. */
export const PRIVATE_UMASK = 0o077;

/** From now on this process makes files for its own user only. */
export function keepFilesPrivate(): void {
  process.umask(PRIVATE_UMASK);
}

/** Takes every group and other permission off `root` and everything under it (symbolic links
 * are left: their own mode means nothing). */
export function privateTree(root: string): void {
  const narrow = (entry: string) => {
    const stat = lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) chmodSync(entry, stat.mode & 0o700);
    if (stat.isDirectory()) for (const name of readdirSync(entry)) narrow(path.join(entry, name));
  };
  if (existsSync(root)) narrow(root);
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

/** The first of the data folder and its top entries that others may read, write or enter, as
 * 'base (0755)'; undefined when none (or no folder yet). Only the top level: the folder's own
 * mode already closes everything below it, and the check stays cheap. */
export function openToOthers(dataDir: string): string | undefined {
  if (dataDir.includes('://') || !existsSync(dataDir)) return undefined;
  const folder = path.resolve(dataDir);
  const own = statSync(folder);
  if (own.mode & 0o077) return `${folder} (${octal(own.mode)})`;
  for (const name of readdirSync(folder)) {
    const stat = lstatSync(path.join(folder, name));
    if (!stat.isSymbolicLink() && stat.mode & 0o077) return `${path.join(folder, name)} (${octal(stat.mode)})`;
  }
  return undefined;
}

/** The one line a server prints when it refuses a data folder that others can read. */
export function openDataDirMessage(dataDir: string, what: string): string {
  const folder = path.resolve(dataDir);
  return (
    `The data folder ${folder} can be read by other users of this machine (${what}): ` +
    `make it the server's own with \`chmod -R go-rwx ${folder}\`, then start again.`
  );
}
