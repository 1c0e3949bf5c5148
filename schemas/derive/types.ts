// TypeScript types inferred from the entity declarations, so that the client and the server
// share them without writing them again. Example:
//   type Provider = RowOf<typeof serviceProvider>;          // what the API answers
//   type NewProvider = CreateBodyOf<typeof serviceProvider>; // what POST /sproviers/ takes
//   type ProviderDoc = DocOf<typeof serviceProvider>;        // an RxDB document

import type { AuditFields, EntityShape } from '../define.ts';

/** Flattens intersections so editors show plain object types. */
type Simplify<T> = { [K in keyof T]: T[K] };

/** The TypeScript type of a field's value. */
export type ValueOf<F> = F extends { kind: 'id' | 'string' | 'image' }
  ? string
  : F extends { kind: 'integer' | 'number' | 'lookup' | 'lat' | 'lng' }
    ? number
    : F extends { kind: 'boolean' }
      ? boolean
      : F extends { kind: 'enum'; values: readonly (infer V)[] }
        ? V
        : F extends { _type?: () => infer T }
          ? T
          : never;

type Is<F, Flag extends string> = F extends { readonly [P in Flag]: true } ? true : false;
type Defaulted<F> = F extends { default: string | number | boolean } ? true : Is<F, 'defaultNow'>;

type Fields<E extends EntityShape> = E['fields'];
type AllFields<E extends EntityShape> = E['fields'] & E['systemFields'];

/** The key the server generates when missing: a single own id key; never a composite key
 * nor a parent's key (see define.ts `generatedKey`). */
type GeneratedKey<E extends EntityShape> = E['key'] extends string
  ? Fields<E>[E['key']] extends { kind: 'id'; ref: string }
    ? never
    : Fields<E>[E['key']] extends { kind: 'id' }
      ? E['key']
      : never
  : never;

type KeyFields<E extends EntityShape> = E['key'] extends readonly [infer A, infer B] ? A | B : E['key'];

// --- rows (API answers) ----------------------------------------------------------------------

/** Keys of the fields not flagged with any of `Flags`. */
type KeysWithout<M, Flags extends string> = {
  [K in keyof M]: true extends (Flags extends string ? Is<M[K], Flags> : never) ? never : K;
}[keyof M];

type RowKeys<M> = KeysWithout<M, 'writeOnly' | 'clientOnly' | 'hidden'>;

/** A row as the API returns it: every stored field, optional ones as `null` when empty. */
export type RowOf<E extends EntityShape> = Simplify<{
  -readonly [K in RowKeys<AllFields<E>>]: Is<AllFields<E>[K], 'required'> extends true
    ? ValueOf<AllFields<E>[K]>
    : ValueOf<AllFields<E>[K]> | null;
}>;

// --- bodies (API requests) -------------------------------------------------------------------

type WritableKeys<M> = KeysWithout<M, 'readOnly' | 'clientOnly' | 'hidden'>;

/** A field the client must send: required, no default, and not the generated key. */
type MustSend<E extends EntityShape, K> =
  K extends GeneratedKey<E>
    ? false
    : K extends keyof Fields<E>
      ? Is<Fields<E>[K], 'required'> extends true
        ? Defaulted<Fields<E>[K]> extends true
          ? false
          : true
        : false
      : false;

/** Optional values: required-with-default fields cannot be cleared, other optional ones can. */
type OptionalValue<F> = Is<F, 'required'> extends true ? ValueOf<F> : ValueOf<F> | null;

/** The body of POST (create). The key may be left out: the server then makes one. */
export type CreateBodyOf<E extends EntityShape> = Simplify<
  { -readonly [K in WritableKeys<Fields<E>> as MustSend<E, K> extends true ? K : never]: ValueOf<Fields<E>[K]> } & {
    -readonly [K in WritableKeys<Fields<E>> as MustSend<E, K> extends true ? never : K]?: OptionalValue<Fields<E>[K]>;
  }
>;

/** The body of PUT (update): any writable field but the key, plus the `updatedAt` the edit is
 * based on (product.md §D6: the server answers 409 `conflict` when its row changed since). */
export type UpdateBodyOf<E extends EntityShape> = Simplify<
  {
    -readonly [K in Exclude<WritableKeys<Fields<E>>, KeyFields<E>>]?: OptionalValue<Fields<E>[K]>;
  } & { updatedAt?: string }
>;

// --- RxDB documents --------------------------------------------------------------------------

/** Sync state of every offline document (product.md §D6). Names without a leading underscore:
 * RxDB reserves top-level `_` names (schema error SC8). */
export interface SyncFields {
  /** 'synced': a copy of the server's row; 'pending': a local change not yet uploaded. */
  syncState: 'synced' | 'pending';
  /** The operation a pending document waits for. */
  syncOp?: 'create' | 'update';
  /** The server `updatedAt` a pending update was based on (sent with the PUT). */
  syncBase?: string;
  /** Upload attempts so far. */
  syncAttempts: number;
  /** Last upload error text, shown on the pending-records screen. */
  syncError?: string;
  /** Ascending sort key that lists newest first (see rxdb.ts `newestFirstKey`). */
  sortDesc: string;
  /** Image slots a pending update empties on the server (records with image slots only). */
  syncRemoveImages?: string[];
}

/** Documents keep browser-only fields (image bytes) but never passwords or their hashes. */
type DocKeys<M> = KeysWithout<M, 'writeOnly' | 'hidden'>;
type RequiredIn<E extends EntityShape, K> = K extends keyof Fields<E> ? Is<Fields<E>[K], 'required'> : false;

/** The composite key string RxDB stores for [a, b] keys (see rxdb.ts `COMPOSITE_KEY`). */
type CompositeKeyField<E extends EntityShape> = E['key'] extends readonly [string, string] ? { pk: string } : unknown;

/** An RxDB document: the entity's fields (empty ones absent rather than null, as RxDB
 * prefers), the audit fields of its server copy, and the sync fields. */
export type DocOf<E extends EntityShape> = Simplify<
  { -readonly [K in DocKeys<Fields<E>> as RequiredIn<E, K> extends true ? K : never]: ValueOf<Fields<E>[K]> } & {
    -readonly [K in DocKeys<Fields<E>> as RequiredIn<E, K> extends true ? never : K]?: ValueOf<Fields<E>[K]>;
  } & { -readonly [K in keyof AuditFields]?: ValueOf<AuditFields[K]> } & SyncFields &
    CompositeKeyField<E>
>;
