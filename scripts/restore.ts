// `npm run restore -- <file> [--force]`: a backup of `npm run backup` back into the configured
// database (DATABASE_URL, else the embedded one in DATA_DIR). The work is in
// server/ops/restore.ts; README "Backups".
import { parseArgs } from 'node:util';
import { configFromEnv } from '../server/config';
import { oneLine } from '../server/ops/errors';
import { restore, restoreReport } from '../server/ops/restore';

const USAGE = 'Usage: npm run restore -- <backup file> [--force]   (--force replaces a database that holds data)';

async function main(): Promise<void> {
  let file: string;
  let force: boolean;
  try {
    const { values, positionals } = parseArgs({
      args: process.argv.slice(2),
      options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      return;
    }
    if (positionals.length !== 1)
      throw new Error(positionals.length ? `one backup file at a time, got ${positionals.length}` : 'which backup file?');
    [file] = positionals as [string];
    force = values.force ?? false;
  } catch (error) {
    console.error(`${oneLine(error)}\n${USAGE}`);
    process.exitCode = 1;
    return;
  }
  const result = await restore(configFromEnv(), file, { force });
  console.log(restoreReport(result));
}

main().catch((error: unknown) => {
  console.error(`Restore failed: ${oneLine(error)}`);
  process.exitCode = 1;
});
