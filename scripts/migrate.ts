// `npm run migrate`: the migrations, the audit retention and the app role's grants, as a server
// start does them, without starting a server. With DATABASE_OWNER_URL and DATABASE_URL, the
// server can then be started with DATABASE_URL alone and never hold the owner's password
// (README "Running against PostgreSQL").
import { configFromEnv } from '../server/config';
import { openDb } from '../server/db/index';
import { prepareDatabase } from '../server/db/roles';
import { holdDataDir } from '../server/lib/dataDirLock';
import { keepFilesPrivate } from '../server/lib/privateFiles';

async function main(): Promise<void> {
  keepFilesPrivate(); // the data folder is the server's user's only (docs/security.md "Operations")
  const config = configFromEnv();
  if (!config.databaseUrl) await holdDataDir(config.dataDir, 'the migration');
  const db = await openDb(config);
  try {
    const warning = await prepareDatabase(db, config);
    if (warning) console.warn(`Warning: ${warning}`);
    const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM "schema_migrations"');
    console.log(
      `Migrated: ${row?.n ?? 0} migrations applied${config.databaseOwnerUrl ? ", and DATABASE_URL's role granted what the app needs" : ''}.`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
