// Every test server on the embedded database starts from one database migrated once per run,
// not from an empty one: PGlite's first start (initdb, then every migration) takes about 4 s of
// CPU, a start from a migrated data folder under 1 s, and a test file may start several servers.
// The image holds the migrations only: each server still runs its own start on it (the
// migrations' check, the retention, the secrets, the first administrator), as on a database
// migrated by an earlier release. The migrations still run from an empty database here (the
// image is made so, and fails the run if they fail) and wherever a server starts without it: on
// PostgreSQL, on a data folder on disk, in a spawned server process.
import { readFileSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgliteMigratable } from '../../server/db/index';
import { migrate } from '../../server/db/migrations';

/** Where the run's image is: set by the tests' global setup (test/helpers/globalSetup.ts). */
export const PGLITE_IMAGE_ENV = 'ICRS_TEST_PGLITE_IMAGE';

/** Migrates a new database in memory and writes its data folder to `file`. */
export async function writePgliteImage(file: string): Promise<void> {
  const lite = await PGlite.create('memory://', { extensions: { pg_trgm } });
  try {
    await migrate(pgliteMigratable(lite));
    // Every change in the data files: the image opens without replaying the log.
    await lite.query('CHECKPOINT');
    writeFileSync(file, Buffer.from(await (await lite.dumpDataDir('none')).arrayBuffer()), { mode: 0o600 });
  } finally {
    await lite.close();
  }
}

let image: Blob | undefined;

/** The run's image, read once per process; none outside the test runner (a bench starts from
 * an empty database, as the server does). */
export function pgliteImage(): Blob | undefined {
  const file = process.env[PGLITE_IMAGE_ENV];
  if (!file) return undefined;
  image ??= new Blob([readFileSync(file)]);
  return image;
}
