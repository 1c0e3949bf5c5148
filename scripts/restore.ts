// `npm run restore -- <file> [--force]`: a backup of `npm run backup` back into the configured
// database (DATABASE_OWNER_URL, else DATABASE_URL, else the embedded one in DATA_DIR), decrypted
// with BACKUP_KEY or the identity file BACKUP_IDENTITY names. The work is in
// server/ops/restore.ts; README "Backups".
import { parseArgs } from 'node:util';
import { configFromEnv } from '../server/config';
import { keepFilesPrivate } from '../server/lib/privateFiles';
import { oneLine } from '../server/ops/errors';
import { restoreKeyFromEnv } from '../server/ops/encryption';
import { restore, restoreReport } from '../server/ops/restore';

const USAGE =
  'Usage: npm run restore -- <backup file> [--force]   (--force replaces a database that holds data; ' +
  'an encrypted backup opens with BACKUP_KEY or BACKUP_IDENTITY)';

async function main(): Promise<void> {
  // Backups and restored folders hold every client: this user's only (docs/security.md "Operations").
  keepFilesPrivate();
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
  const config = configFromEnv();
  const target = { ...config, databaseUrl: config.databaseOwnerUrl ?? config.databaseUrl };
  const result = await restore(target, file, { force, key: restoreKeyFromEnv(process.env) });
  result.asOwner = config.databaseOwnerUrl !== undefined;
  console.log(restoreReport(result));
}

main().catch((error: unknown) => {
  console.error(`Restore failed: ${oneLine(error)}`);
  process.exitCode = 1;
});
