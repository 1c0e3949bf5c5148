// Helpers for the entity tests: multipart requests and the organisation list.
import type { Db } from '../../server/db/index';
import { seedLists } from '../../server/seed/lists';
import type { TestServer } from './server';

/** A 1×1 PNG. */
export const PNG_1PX = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2264c5e0000000049454e44ae426082',
  'hex',
);

/** Sends `fields` and `files` as multipart/form-data (what the app's forms send). */
export async function multipartRequest(
  t: TestServer,
  method: string,
  path: string,
  token: string,
  fields: Record<string, unknown>,
  files: Record<string, Buffer>,
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null) form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  for (const [name, data] of Object.entries(files)) form.append(name, new Blob([new Uint8Array(data)]), `${name}.bin`);
  const response = await fetch(`${t.url}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' }, body: form });
  const text = await response.text();
  let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  try { body = JSON.parse(text); } catch { body = text; }
  return { status: response.status, body };
}

/** The organisation list (abbreviations make registration numbers), when not seeded yet. */
export async function ensureOrganisations(db: Db) {
  const organisations = seedLists.find((l) => l.key === 'organisation');
  await db.query(
    `INSERT INTO "lists" ("id", "key", "items") VALUES ($1, 'organisation', $2) ON CONFLICT ("key") DO NOTHING`,
    ['01900000-0000-7000-8000-0000000000aa', JSON.stringify(organisations?.items ?? [])],
  );
}
