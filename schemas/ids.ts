// Keys and registration numbers made on the device (product.md §D2, product.md §5). Uses
// crypto.getRandomValues only, which Node 20 and every browser provide as a global.

/** Message of product.md §5 when a user without organisation tries to create a profile. */
export const SUPER_ADMIN_CANNOT_CREATE = 'Error Saving Super admin cannot create';

const REG_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const REG_SUFFIX_LENGTH = 8;
const ABBR_PATTERN = /^[A-Z0-9]{1,12}$/;
const REG_PATTERN = /^[A-Z0-9]{1,12}[A-Z0-9]{8}$/;

const MAX_COUNTER = 0xfff;
let lastMs = -1;
let counter = 0;

function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** Millisecond time and a 12-bit counter that never go backwards within this process
 * (RFC 9562 §6.2 method 1): keys made in the same millisecond still sort in creation order,
 * and a clock stepping back cannot reorder them. The counter starts at a random value in its
 * lower half, leaving room to count up before it borrows the next millisecond. */
function nextTimeAndCounter(): [number, number] {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = ((randomBytes(2)[0] ?? 0) << 3) & 0x7ff;
  } else if (counter < MAX_COUNTER) {
    counter += 1;
  } else {
    lastMs += 1;
    counter = 0;
  }
  return [lastMs, counter];
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A UUIDv7 (RFC 9562): 48-bit Unix milliseconds, version 7, 12-bit counter, variant 10,
 * 62 random bits. Lower-case canonical form, time-ordered as a string. An explicit `now`
 * (tests, imports of dated records) is used as given, with a random counter. */
export function uuidv7(now?: number): string {
  const [ms, seq] = now === undefined ? nextTimeAndCounter() : [now, ((randomBytes(2)[0] ?? 0) << 4) & MAX_COUNTER];
  const bytes = randomBytes(16);
  for (let i = 0; i < 6; i += 1) bytes[i] = Math.floor(ms / 2 ** (8 * (5 - i))) & 0xff;
  bytes[6] = 0x70 | (seq >> 8);
  bytes[7] = seq & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const h = hex(bytes);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The Unix milliseconds a UUIDv7 was made at. */
export function uuidv7Time(id: string): number {
  return parseInt(id.replaceAll('-', '').slice(0, 12), 16);
}

/** `count` characters from `alphabet`, without modulo bias: bytes beyond the largest whole
 * multiple of the alphabet's size are drawn again. */
function randomChars(alphabet: string, count: number): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < count) {
    for (const b of randomBytes(count * 2)) {
      if (b < limit && out.length < count) out += alphabet[b % alphabet.length];
    }
  }
  return out;
}

/** Registration number of a new client profile: the organisation abbreviation followed by 8
 * characters from A-Z0-9 (product.md §5). No abbreviation (super admin, location 0) → the spec's
 * 'Error Saving Super admin cannot create'. */
export function registrationNumber(abbr: string | null | undefined): string {
  const prefix = (abbr ?? '').trim().toUpperCase();
  if (!prefix) throw new Error(SUPER_ADMIN_CANNOT_CREATE);
  if (!ABBR_PATTERN.test(prefix)) throw new Error(`Invalid organisation abbreviation: ${prefix}`);
  return prefix + randomChars(REG_ALPHABET, REG_SUFFIX_LENGTH);
}

/** True when `value` is a registration number, with the abbreviation `abbr` when given. */
export function isRegistrationNumber(value: unknown, abbr?: string): boolean {
  if (typeof value !== 'string' || !REG_PATTERN.test(value)) return false;
  if (abbr === undefined) return true;
  const prefix = abbr.trim().toUpperCase();
  return value.length === prefix.length + REG_SUFFIX_LENGTH && value.startsWith(prefix);
}
