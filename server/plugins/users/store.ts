// Users in the database. The password hash never leaves this module's callers' hands:
// `publicUser` is what any answer may contain.
import type { Queryable, Row } from '../../db/index';
import type { Conditions } from '../../lib/records';

export interface UserRecord {
  userId: string;
  userName: string;
  passwordHash: string;
  role: number;
  location: number;
  fullName: string;
  email: string | null;
  phone: string | null;
  active: boolean;
  /** A temporary password set by an administrator, to change at the next sign-in. */
  mustChangePassword: boolean;
  lastSignInAt: string | null;
  /** Sessions signed with an older version are over (server/lib/tokens.ts). */
  tokenVersion: number;
  /** The devices' unlock secret of the release before; null since migration 0023, which moved
   * it to the "device_secrets" table (deviceSecrets). */
  deviceSecret: string | null;
  /** Sessions signed out and not yet expired (read by findSessionUser only). */
  signedOutSessions?: string[];
  createdAt: string;
  updatedAt: string;
}

// Milliseconds, as JSON carries them: an edit sends back the `updatedAt` it read, and the
// conflict check compares it for equality (records.ts updateRow).
const NOW = "date_trunc('milliseconds', now())";

/** The columns that never leave the server in a user's answer (the entity's hidden fields). */
export type PublicUser = Omit<UserRecord, 'passwordHash' | 'tokenVersion' | 'deviceSecret' | 'signedOutSessions'>;

export function publicUser({
  passwordHash: _hidden,
  tokenVersion: _server,
  deviceSecret: _device,
  signedOutSessions: _out,
  ...rest
}: UserRecord): PublicUser {
  return rest;
}

/** The user as the session check reads it: the row and its signed-out sessions still running. */
export async function findSessionUser(db: Queryable, userId: string): Promise<UserRecord | undefined> {
  const rows = await db.query<UserRecord & Record<string, unknown>>(
    `SELECT u.*, ARRAY(SELECT s."sessionId" FROM "signed_out_sessions" s WHERE s."userId" = u."userId" AND s."expiresAt" > now()) AS "signedOutSessions"
     FROM "users" u WHERE u."userId" = $1`,
    [userId],
  );
  return rows[0];
}

/** Ends one session (sign-out, ADR-0002): its id is kept until the token's own expiry, and
 * the insert notifies every server process as a change of the users table (migration 0019), so
 * each one's session check reads it at the next request. Expired entries are deleted. */
export async function signOutSession(db: Queryable, claims: { sub: string; sid: string; exp?: number }): Promise<void> {
  await db.query('DELETE FROM "signed_out_sessions" WHERE "expiresAt" <= now()');
  await db.query(
    `INSERT INTO "signed_out_sessions" ("sessionId", "userId", "expiresAt") VALUES ($1, $2, to_timestamp($3))
     ON CONFLICT ("sessionId") DO NOTHING`,
    [claims.sid, claims.sub, claims.exp ?? Math.floor(Date.now() / 1000) + 86_400],
  );
}

const DEVICE_SECRET_BYTES = 32;
/** How many earlier secrets a device may still open its keyring with (then seals it again
 * under the current one): a device unused through more rotations than this asks for the
 * password that sealed it (docs/security.md "Shared and lost devices"). */
export const PREVIOUS_SECRETS = 20;

const freshSecret = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(DEVICE_SECRET_BYTES))).toString('base64url');

/** What a device of the user is given to open its keyring (GET /api/session/device). */
export interface DeviceSecrets {
  /** The secret the keyring is sealed under from now on (base64url of 32 random bytes). */
  secret: string;
  /** Earlier secrets, newest first: a keyring sealed under one is opened, then sealed again. */
  previous: string[];
  /** The key of the user's export files: never rotated, so that another device still opens a
   * file exported before a rotation (src/lib/vault/exportSeal.ts). */
  exportSecret: string;
}

/** The user's device secrets, kept in their own table ("device_secrets", migration 0023), whose
 * data no backup holds (server/ops); made the first time they are asked for. Undefined for an
 * unknown user. */
export async function deviceSecrets(db: Queryable, userId: string): Promise<DeviceSecrets | undefined> {
  const read = async () =>
    (
      await db.query<DeviceSecrets & Row>(`SELECT "secret", "previous", "exportSecret" FROM "device_secrets" WHERE "userId" = $1`, [userId])
    )[0];
  const stored = await read();
  if (stored) return stored;
  if (!(await findUserById(db, userId))) return undefined;
  // Two first calls at once (two tabs, two processes): the first write wins, both read it.
  await db.query(
    `INSERT INTO "device_secrets" ("userId", "secret", "exportSecret") VALUES ($1, $2, $3) ON CONFLICT ("userId") DO NOTHING`,
    [userId, freshSecret(), freshSecret()],
  );
  return read();
}

/** A new device secret for the user (sign-out, password change or reset, deactivation and
 * reactivation): a secret copied earlier no longer opens a keyring sealed since, and every
 * device seals its keyring again under the new one at its next unlock. The former one joins
 * `previous` (the PREVIOUS_SECRETS newest kept). Run it in the transaction of the change. */
export async function rotateDeviceSecret(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `UPDATE "device_secrets" SET "previous" = ("secret" || "previous")[1:${PREVIOUS_SECRETS}], "secret" = $2,
       "rotatedAt" = clock_timestamp() WHERE "userId" = $1`,
    [userId, freshSecret()],
  );
}

/** Ends every session of a user (password change or reset, deactivation): raises its token
 * version, so every token signed before is refused, and answers the new version. Run it in the
 * transaction of the change itself, so the two happen together or not at all. */
export async function endSessions(db: Queryable, userId: string): Promise<number> {
  const rows = await db.query<{ tokenVersion: number }>(
    'UPDATE "users" SET "tokenVersion" = "tokenVersion" + 1 WHERE "userId" = $1 RETURNING "tokenVersion"',
    [userId],
  );
  return rows[0].tokenVersion;
}

/** Notes a successful sign-in (the user list's "last sign-in"). */
export async function noteSignIn(db: Queryable, userId: string): Promise<string> {
  const rows = await db.query<{ lastSignInAt: string }>(
    `UPDATE "users" SET "lastSignInAt" = ${NOW} WHERE "userId" = $1 RETURNING "lastSignInAt"`,
    [userId],
  );
  return rows[0].lastSignInAt;
}

export async function findUserByName(db: Queryable, userName: string): Promise<UserRecord | undefined> {
  const rows = await db.query<UserRecord & Record<string, unknown>>('SELECT * FROM "users" WHERE lower("userName") = lower($1)', [
    userName,
  ]);
  return rows[0];
}

export async function findUserById(db: Queryable, userId: string): Promise<UserRecord | undefined> {
  const rows = await db.query<UserRecord & Record<string, unknown>>('SELECT * FROM "users" WHERE "userId" = $1', [userId]);
  return rows[0];
}

export interface NewUser {
  userId: string;
  userName: string;
  passwordHash: string;
  role: number;
  location?: number;
  fullName: string;
  email?: string | null;
  phone?: string | null;
  /** False creates the account disabled (it cannot sign in until reactivated). */
  active?: boolean;
  /** True for a password someone else chose (a new account): changed at the first sign-in. */
  mustChangePassword?: boolean;
  /** Items of the `territory` list (docs/product.md §6.5.1), checked by territories.ts. */
  territories?: readonly number[] | null;
  createdBy?: string | null;
}

export async function insertUser(db: Queryable, user: NewUser): Promise<UserRecord> {
  const rows = await db.query<UserRecord & Record<string, unknown>>(
    `INSERT INTO "users" ("userId", "userName", "passwordHash", "role", "location", "fullName", "email", "phone", "active",
       "mustChangePassword", "territories", "createdBy", "updatedBy", "createdAt", "updatedAt")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $12::jsonb, $11, $11, ${NOW}, ${NOW}) RETURNING *`,
    [
      user.userId,
      user.userName,
      user.passwordHash,
      user.role,
      user.location ?? 0,
      user.fullName,
      user.email ?? null,
      user.phone ?? null,
      user.active ?? true,
      user.mustChangePassword ?? false,
      user.createdBy ?? null,
      user.territories ? JSON.stringify(user.territories) : null,
    ],
  );
  return rows[0];
}

/** Active users for pickers (assignment, filters): just enough to show and choose one. */
export async function pickerUsers(db: Queryable, where: Conditions): Promise<Row[]> {
  where.add('"active"');
  return db.query(
    `SELECT "userId", "userName", "fullName", "role", "location" FROM "users" ${where.sql}
     ORDER BY lower("fullName"), lower("userName")`,
    where.params,
  );
}

export async function countUsers(db: Queryable): Promise<number> {
  const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM "users"');
  return rows[0].n;
}
