// `npm run backup [-- --dir <folder>]`: one backup file of the configured database (DATABASE_URL,
// else the embedded one in DATA_DIR) in <folder> (BACKUP_DIR, else ./backups). The work is in
// server/ops/backup.ts; README "Backups".
import { parseArgs } from 'node:util';
import { configFromEnv } from '../server/config';
import { backup, backupReport, DEFAULT_BACKUP_DIR } from '../server/ops/backup';
import { oneLine } from '../server/ops/errors';

const USAGE = `Usage: npm run backup [-- --dir <folder>]   (folder: --dir, else BACKUP_DIR, else ${DEFAULT_BACKUP_DIR})`;

async function main(): Promise<void> {
  let dir: string | undefined;
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      options: { dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      console.log(USAGE);
      return;
    }
    dir = values.dir;
  } catch (error) {
    console.error(`${oneLine(error)}\n${USAGE}`);
    process.exitCode = 1;
    return;
  }
  // The backup folder is the command's own option, not the server's: read here, not in config.ts.
  const result = await backup(configFromEnv(), { dir: dir ?? (process.env.BACKUP_DIR || DEFAULT_BACKUP_DIR) });
  console.log(backupReport(result));
}

main().catch((error: unknown) => {
  console.error(`Backup failed: ${oneLine(error)}`);
  process.exitCode = 1;
});
