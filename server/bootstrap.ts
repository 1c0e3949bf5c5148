// What a fresh database needs before anyone can sign in: a token secret and a first administrator.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Config } from './config';
import type { Db } from './db/index';
import { isUniqueViolation } from './lib/errors';
import { hashPassword, randomPassword } from './lib/passwords';
import { countUsers, insertUser } from './plugins/users/store';
import { uuidv7 } from '../schemas/ids';

/** The configured secret, else one made once and kept in the database so every server process
 * shares it: in "server_secrets", whose data no backup holds (server/ops/secrets.ts). A restored
 * database has none, so a new one is made here and every earlier token fails its signature. */
export async function tokenSecret(db: Db, config: Config): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const fresh = Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString('base64url');
  await db.query('INSERT INTO "server_secrets" ("key", "value") VALUES ($1, $2) ON CONFLICT ("key") DO NOTHING', ['jwtSecret', fresh]);
  const [row] = await db.query<{ value: string }>('SELECT "value" FROM "server_secrets" WHERE "key" = $1', ['jwtSecret']);
  return row.value;
}

export interface FirstAdmin {
  userName: string;
  /** Set only when the password was generated here: the file that holds it (ADR-0003). */
  passwordFile?: string;
}

export const FIRST_ADMIN_PASSWORD_FILE = 'first-admin-password.txt';

/** Writes a generated password to a file only the server's user may read (0600), in DATA_DIR
 * (a temporary folder when the database lives in memory), and answers its path: the password
 * itself never reaches standard output, which container and service logs keep. */
function writePasswordFile(config: Config, userName: string, password: string): string {
  const dir = config.dataDir.startsWith('memory://') ? mkdtempSync(path.join(tmpdir(), 'icrs-')) : path.resolve(config.dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, FIRST_ADMIN_PASSWORD_FILE);
  writeFileSync(file, `user: ${userName}\npassword: ${password}\n`, { mode: 0o600 });
  return file;
}

/** Creates the first administrator when the database has no user at all. */
export async function ensureFirstAdmin(db: Db, config: Config): Promise<FirstAdmin | undefined> {
  if ((await countUsers(db)) > 0) return undefined;
  const generatedPassword = config.adminPassword ? undefined : randomPassword();
  const password = config.adminPassword ?? (generatedPassword as string);
  try {
    await insertUser(db, {
      userId: uuidv7(),
      userName: config.adminUserName,
      passwordHash: await hashPassword(password),
      role: 1,
      location: 0,
      fullName: 'Administrator',
      // A generated password is temporary: the app and the server ask for a new one at once.
      mustChangePassword: generatedPassword !== undefined,
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined; // another server process made it first
    throw error;
  }
  return {
    userName: config.adminUserName,
    passwordFile: generatedPassword ? writePasswordFile(config, config.adminUserName, generatedPassword) : undefined,
  };
}

/** Where a generated first password is kept: the file `ensureFirstAdmin` wrote in this process,
 * else DATA_DIR's (a server restarted before the change). Undefined for a database in memory
 * that this process did not fill. */
export function firstPasswordFile(config: Config, firstAdmin: FirstAdmin | undefined): string | undefined {
  if (firstAdmin?.passwordFile) return firstAdmin.passwordFile;
  return config.dataDir.startsWith('memory://') ? undefined : path.join(path.resolve(config.dataDir), FIRST_ADMIN_PASSWORD_FILE);
}

/** Deletes the first-password file once the administrator it names has chosen a password of
 * their own: the password in it no longer opens anything, and a file holding a password must
 * not outlive its use (docs/adr/0044-quiet-terminal.md "A quiet terminal"). A file naming another user stays. */
export function forgetFirstPassword(file: string | undefined, userName: string): boolean {
  if (!file) return false;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false; // already gone, or never written
  }
  if (!text.startsWith(`user: ${userName}\n`)) return false;
  rmSync(file, { force: true });
  return true;
}
