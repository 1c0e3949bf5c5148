// Possible duplicates of a client (ADR-0028): the one matching rule, used by the server (in SQL,
// within the user's organisation) and by the client (over this device's store). A client is a
// possible duplicate when it has the same first and last name (case and accents ignored) and the
// same birth date, or the same phone number (digits only).

export interface DuplicateQuery {
  firstName?: string | null;
  lastName?: string | null;
  birthDate?: string | null;
  phone?: string | null;
  /** The client being edited: not its own duplicate. */
  exclude?: string | null;
}

/** What matched: 'name' (names and birth date), 'phone', or both. */
export type DuplicateMatch = ('name' | 'phone')[];

export interface Duplicate {
  prof_Id: string;
  prof_Reg_No: string;
  firstName: string;
  lastName: string;
  birthDate?: string | null;
  phone?: string | null;
  match: DuplicateMatch;
}

/** At most this many are listed: enough to see that a client may exist already. */
export const MAX_DUPLICATES = 20;
/** A phone number is compared when it has at least this many digits. */
export const MIN_PHONE_DIGITS = 6;

/** Lower case without accents, spaces trimmed and collapsed: 'Élodie ' → 'elodie'. The
 * database applies the same folding (server/plugins/records/duplicates.ts). */
export function foldName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ' ');
}

export function phoneDigits(text: string): string {
  return text.replace(/[^0-9]/g, '');
}

/** What makes `doc` a possible duplicate of the client described by `query` (empty: nothing). */
export function duplicateMatch(query: DuplicateQuery, doc: Readonly<Record<string, unknown>>): DuplicateMatch {
  const match: DuplicateMatch = [];
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  const first = foldName(text(query.firstName));
  const last = foldName(text(query.lastName));
  if (
    first &&
    last &&
    query.birthDate &&
    foldName(text(doc.firstName)) === first &&
    foldName(text(doc.lastName)) === last &&
    doc.birthDate === query.birthDate
  ) {
    match.push('name');
  }
  const digits = phoneDigits(text(query.phone));
  if (digits.length >= MIN_PHONE_DIGITS && phoneDigits(text(doc.phone)) === digits) match.push('phone');
  return match;
}
