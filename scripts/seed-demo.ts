// `npm run seed:demo -- --scale N [--seed S]`: demo data in the configured database
// (DATABASE_URL, else the embedded one in DATA_DIR). See server/seed/demo.ts.
import { runSeedDemo } from '../server/seed/demo';

runSeedDemo(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
