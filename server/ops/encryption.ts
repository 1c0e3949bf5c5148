// Backups are encrypted by default (docs/security.md "Operations", README "Backups"): a backup
// holds every client, the password hashes and the audit log, and a file travels (copied off the
// machine, kept for months) where the server's own protections do not follow.
//
// The format is age (age-encryption.org/v1), through `age-encryption` (typage, the reference
// JavaScript implementation by age's author), so that an operator can also open a backup with
// the `age` command line tool: `age -d -o backup.dump backup.dump.age`. Two kinds of key:
// - BACKUP_KEY: a passphrase (scrypt, work factor 2^18); the same passphrase restores;
// - BACKUP_RECIPIENTS: age X25519 public keys (age1…), comma or space separated; the matching
//   identity file (AGE-SECRET-KEY-1…), named by BACKUP_IDENTITY, restores. The machine that
//   makes the backups then holds no key that opens them.
// Both stream: a PostgreSQL dump goes from pg_dump through the cipher to the file, and back from
// the file through the cipher to pg_restore, in 64 KiB chunks, never whole in memory.
import { readFileSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Decrypter, Encrypter } from 'age-encryption';
import { OperatorError } from './errors';

/** How `npm run backup` writes its file: encrypted under a passphrase or for recipients, or plain (--plain). */
export type BackupKey = { kind: 'passphrase'; passphrase: string } | { kind: 'recipients'; recipients: string[] } | { kind: 'plain' };

/** What `npm run restore` may open an encrypted backup with. */
export interface RestoreKey {
  passphrase?: string;
  /** age identities (AGE-SECRET-KEY-1…). */
  identities?: string[];
}

/** The first bytes of every age file. */
export const AGE_MAGIC = 'age-encryption.org/v1\n';
export const ENCRYPTED_EXTENSION = '.age';

/** The key `npm run backup` uses, from BACKUP_KEY / BACKUP_RECIPIENTS and --plain; refuses when none is given. */
export function backupKeyFromEnv(env: NodeJS.ProcessEnv, plain: boolean): BackupKey {
  const passphrase = env.BACKUP_KEY ?? '';
  const recipients = (env.BACKUP_RECIPIENTS ?? '').split(/[\s,]+/).filter(Boolean);
  if (plain) {
    if (passphrase || recipients.length)
      throw new OperatorError('--plain writes an unencrypted backup: unset BACKUP_KEY and BACKUP_RECIPIENTS, or leave out --plain');
    return { kind: 'plain' };
  }
  if (passphrase && recipients.length)
    throw new OperatorError('Both BACKUP_KEY and BACKUP_RECIPIENTS are set: a backup is encrypted under one of them, set only one');
  if (recipients.length) {
    const wrong = recipients.find((recipient) => !/^age1[0-9a-z]{58}$/.test(recipient));
    if (wrong)
      throw new OperatorError(
        `BACKUP_RECIPIENTS holds "${wrong.slice(0, 12)}…", which is not an age X25519 public key (age1 followed by 58 characters, as age-keygen prints)`,
      );
    return { kind: 'recipients', recipients };
  }
  if (passphrase) {
    if (passphrase.length < 16)
      throw new OperatorError('BACKUP_KEY is shorter than 16 characters: use a long random passphrase (e.g. openssl rand -base64 32)');
    return { kind: 'passphrase', passphrase };
  }
  throw new OperatorError(
    'No backup key: set BACKUP_KEY (a passphrase) or BACKUP_RECIPIENTS (age public keys) to encrypt the backup, ' +
      'or give --plain to write it unencrypted (every client, in clear)',
  );
}

/** The keys `npm run restore` tries: BACKUP_KEY, and the identities in the file BACKUP_IDENTITY names. */
export function restoreKeyFromEnv(env: NodeJS.ProcessEnv): RestoreKey {
  const key: RestoreKey = {};
  if (env.BACKUP_KEY) key.passphrase = env.BACKUP_KEY;
  if (env.BACKUP_IDENTITY) {
    let text: string;
    try {
      text = readFileSync(env.BACKUP_IDENTITY, 'utf8');
    } catch (error) {
      throw new OperatorError(`BACKUP_IDENTITY names ${env.BACKUP_IDENTITY}, which cannot be read: ${(error as Error).message}`);
    }
    const identities = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('AGE-SECRET-KEY-'));
    if (!identities.length)
      throw new OperatorError(
        `${env.BACKUP_IDENTITY} (BACKUP_IDENTITY) holds no age identity (a line AGE-SECRET-KEY-1…, as age-keygen writes)`,
      );
    key.identities = identities;
  }
  return key;
}

/** `plain` encrypted under `key`, as a stream. */
export async function encryptStream(plain: Readable, key: Exclude<BackupKey, { kind: 'plain' }>): Promise<Readable> {
  const encrypter = new Encrypter();
  if (key.kind === 'passphrase') encrypter.setPassphrase(key.passphrase);
  else for (const recipient of key.recipients) encrypter.addRecipient(recipient);
  const sealed = await encrypter.encrypt(Readable.toWeb(plain) as unknown as ReadableStream<Uint8Array>);
  return Readable.fromWeb(sealed as unknown as WebReadableStream<Uint8Array>);
}

/** A damaged or truncated backup, in one line. */
export const damaged = (name: string, detail?: string) =>
  new OperatorError(
    `${name} is truncated or damaged${detail ? ` (${detail})` : ''}: it cannot be restored; take another backup, or an earlier copy of this one`,
  );

/**
 * The decrypted content of the age file `sealed` (named `name` in messages). Refuses at once
 * when no key is given or none opens the file; a file cut short or altered fails while it is
 * read, with an error `damaged()` makes.
 */
export async function decryptStream(sealed: Readable, key: RestoreKey, name: string): Promise<Readable> {
  if (!key.passphrase && !key.identities?.length)
    throw new OperatorError(
      `${name} is encrypted: set BACKUP_KEY to its passphrase, or BACKUP_IDENTITY to the age identity file of one of its recipients`,
    );
  const decrypter = new Decrypter();
  if (key.passphrase) decrypter.addPassphrase(key.passphrase);
  for (const identity of key.identities ?? []) decrypter.addIdentity(identity);
  let plain: Readable;
  try {
    plain = Readable.fromWeb(
      (await decrypter.decrypt(
        Readable.toWeb(sealed) as unknown as ReadableStream<Uint8Array>,
      )) as unknown as WebReadableStream<Uint8Array>,
    );
  } catch (error) {
    sealed.destroy();
    const message = error instanceof Error ? error.message : String(error);
    if (/no identity matched/i.test(message))
      throw new OperatorError(`The key does not open ${name}: BACKUP_KEY or BACKUP_IDENTITY is not the one it was encrypted with`);
    throw damaged(name, message);
  }
  // Every later failure is the file's: authentication fails on a cut or altered chunk.
  const checked = new PassThrough();
  plain.once('error', (error) => checked.destroy(damaged(name, error.message)));
  checked.once('close', () => plain.destroy());
  return plain.pipe(checked);
}
