// Helpers for the entity tests: multipart requests and the organisation list.
import { deflateSync } from 'node:zlib';
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
  const response = await fetch(`${t.url}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
    body: form,
  });
  const text = await response.text();
  let body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body };
}

/** The organisation list (abbreviations make registration numbers), when not seeded yet: through
 * the server's query layer or a `pg` client of a bench's spawned server. */
export async function ensureOrganisations(db: { query(sql: string, params: unknown[]): Promise<unknown> }) {
  const organisations = seedLists.find((l) => l.key === 'organisation');
  await db.query(`INSERT INTO "lists" ("id", "key", "items") VALUES ($1, 'organisation', $2) ON CONFLICT ("key") DO NOTHING`, [
    '01900000-0000-7000-8000-0000000000aa',
    JSON.stringify(organisations?.items ?? []),
  ]);
}

/** A real, decodable PNG of `size`×`size` px in one colour: the image picker decodes what it
 * is given (to shrink it), so the bytes must be a valid image. */
export function png(size: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = (crcTable[(c ^ b) & 0xff] as number) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const line = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: size }, () => line)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
