// `npm run seed:demo -- --scale N [--seed S]`: demo data in the configured database
// (DATABASE_URL, else the embedded one in DATA_DIR). See server/seed/demo.ts.
// A running server holds the embedded database's folder: seeding it then refuses (the server
// would never see the rows and would write over them).
import { configFromEnv } from '../server/config';
import { holdDataDir } from '../server/lib/dataDirLock';
import { keepFilesPrivate } from '../server/lib/privateFiles';
import { runSeedDemo } from '../server/seed/demo';

async function main(): Promise<void> {
  keepFilesPrivate(); // the data folder is the server's user's only (docs/security.md "Operations")
  const config = configFromEnv();
  if (!config.databaseUrl) await holdDataDir(config.dataDir, 'the demo seed');
  await runSeedDemo(process.argv.slice(2));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
