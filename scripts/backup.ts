// `npm run backup [-- --dir <folder>] [--plain]`: one backup file of the configured database
// (DATABASE_OWNER_URL, else DATABASE_URL, else the embedded one in DATA_DIR) in <folder>
// (BACKUP_DIR, else ./backups), encrypted under BACKUP_KEY or for BACKUP_RECIPIENTS; without
// either it refuses unless --plain. The work is in server/ops/backup.ts; README "Backups".
import { parseArgs } from 'node:util';
import { configFromEnv } from '../server/config';
import { keepFilesPrivate } from '../server/lib/privateFiles';
import { backup, backupReport, DEFAULT_BACKUP_DIR } from '../server/ops/backup';
import { backupKeyFromEnv } from '../server/ops/encryption';
import { oneLine } from '../server/ops/errors';

const USAGE =
  `Usage: npm run backup [-- --dir <folder>] [--plain]   (folder: --dir, else BACKUP_DIR, else ${DEFAULT_BACKUP_DIR}; ` +
  'encrypted under BACKUP_KEY or for BACKUP_RECIPIENTS; --plain: unencrypted)';

async function main(): Promise<void> {
  // Backups and restored folders hold every client: this user's only (docs/security.md "Operations").
  keepFilesPrivate();
  let dir: string | undefined;
  let plain: boolean;
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: { dir: { type: 'string' }, plain: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      return;
    }
    dir = values.dir;
    plain = values.plain ?? false;
  } catch (error) {
    console.error(`${oneLine(error)}\n${USAGE}`);
    process.exitCode = 1;
    return;
  }
  // The backup folder is the command's own option, not the server's: read here, not in config.ts.
  const key = backupKeyFromEnv(process.env, plain);
  const config = configFromEnv();
  // The owner role, where there are two, reads every table (README "PostgreSQL").
  const target = { ...config, databaseUrl: config.databaseOwnerUrl ?? config.databaseUrl };
  const result = await backup(target, { dir: dir ?? (process.env.BACKUP_DIR || DEFAULT_BACKUP_DIR), key });
  console.log(backupReport(result));
}

main().catch((error: unknown) => {
  console.error(`Backup failed: ${oneLine(error)}`);
  process.exitCode = 1;
});
