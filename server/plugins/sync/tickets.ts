// Tickets of the change stream (ADR-0002). EventSource cannot send headers, so the stream's
// credential travels in its URL, where a reverse proxy's access log may keep it: the session
// token must not. The app asks for a ticket (POST /api/sync/ticket, with its bearer token) and
// opens the stream with it at once. A ticket is single-use, lives TICKET_SECONDS, names its
// session (so the stream ends with it) and is kept as a hash only. Tickets live in the
// database, so a ticket made by one server process opens a stream on another.
import { createHash } from 'node:crypto';
import type { Queryable } from '../../db/index';
import type { TokenClaims } from '../../lib/tokens';

export const TICKET_SECONDS = 30;

export const TICKETS_TABLE_SQL = `CREATE TABLE IF NOT EXISTS "stream_tickets" (
  "ticketHash" text PRIMARY KEY,
  "userId" text NOT NULL,
  "sessionId" text NOT NULL,
  "tokenVersion" integer NOT NULL,
  "role" integer NOT NULL,
  "expiresAt" timestamptz NOT NULL
)`;

const digest = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/** A new ticket for the session of `claims`. Expired tickets are deleted on the way. */
export async function issueTicket(db: Queryable, claims: TokenClaims): Promise<string> {
  const ticket = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  await db.query('DELETE FROM "stream_tickets" WHERE "expiresAt" <= now()');
  await db.query(
    `INSERT INTO "stream_tickets" ("ticketHash", "userId", "sessionId", "tokenVersion", "role", "expiresAt")
     VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 second')`,
    [digest(ticket), claims.sub, claims.sid, claims.ver, claims.role, TICKET_SECONDS],
  );
  return ticket;
}

/** The session a ticket was made for, once: the ticket is gone after this call, used or not.
 * Undefined for an unknown, used or expired ticket. */
export async function redeemTicket(db: Queryable, ticket: string): Promise<TokenClaims | undefined> {
  const [row] = await db.query<{ userId: string; sessionId: string; tokenVersion: number; role: number; live: boolean }>(
    `DELETE FROM "stream_tickets" WHERE "ticketHash" = $1
     RETURNING "userId", "sessionId", "tokenVersion", "role", ("expiresAt" > now()) AS "live"`,
    [digest(ticket)],
  );
  if (!row?.live) return undefined;
  return { sub: row.userId, sid: row.sessionId, ver: row.tokenVersion, role: row.role };
}
