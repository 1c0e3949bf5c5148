// Once per test run, before any test file: the migrated database the test servers start from
// (test/helpers/pgliteImage.ts), in a file the workers read, removed at the end of the run.
import { readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGLITE_IMAGE_ENV, writePgliteImage } from './pgliteImage';

const PREFIX = 'icrs-test-pglite-';

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The images of runs that were killed before their teardown (40 MB each). */
function removeStaleImages(): void {
  for (const name of readdirSync(os.tmpdir())) {
    const pid = name.startsWith(PREFIX) && name.endsWith('.tar') ? Number(name.slice(PREFIX.length, -4)) : 0;
    if (pid && !running(pid)) rmSync(path.join(os.tmpdir(), name), { force: true });
  }
}

export default async function setup(): Promise<() => void> {
  removeStaleImages();
  const file = path.join(os.tmpdir(), `${PREFIX}${process.pid}.tar`);
  await writePgliteImage(file);
  // The workers start after this and inherit the variable.
  process.env[PGLITE_IMAGE_ENV] = file;
  return () => rmSync(file, { force: true });
}
