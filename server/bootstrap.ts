// What a fresh database needs before anyone can sign in: a token secret and a first administrator.
import type { Config } from './config';
import type { Db } from './db/index';
import { isUniqueViolation } from './lib/errors';
import { hashPassword, randomPassword } from './lib/passwords';
import { countUsers, insertUser } from './plugins/users/store';
import { uuidv7 } from '../schemas/ids';

/** The configured secret, else one made once and kept in the database so every server process shares it. */
export async function tokenSecret(db: Db, config: Config): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const fresh = Buffer.from(crypto.getRandomValues(new Uint8Array(48))).toString('base64url');
  await db.query('INSERT INTO "settings" ("key", "value") VALUES ($1, $2) ON CONFLICT ("key") DO NOTHING', ['jwtSecret', fresh]);
  const [row] = await db.query<{ value: string }>('SELECT "value" FROM "settings" WHERE "key" = $1', ['jwtSecret']);
  return row.value;
}

export interface FirstAdmin {
  userName: string;
  /** Set only when the password was generated here: it must be shown once. */
  generatedPassword?: string;
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
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined; // another server process made it first
    throw error;
  }
  return { userName: config.adminUserName, generatedPassword };
}
