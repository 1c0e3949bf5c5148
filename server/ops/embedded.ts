// The embedded database's folder as a backup and a restore see it: one process at a time
// (server/lib/dataDirLock.ts), so a running server is a refusal, not a wait.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Queryable, Row } from '../db/index';
import { DataDirBusyError, holdDataDir } from '../lib/dataDirLock';
import { OperatorError } from './errors';

/** DATA_DIR as an absolute folder; an in-memory database has no folder to back up or restore. */
export function embeddedFolder(dataDir: string): string {
  if (dataDir.includes('://')) throw new OperatorError(`DATA_DIR is ${dataDir}: an in-memory database has nothing to back up or restore`);
  return path.resolve(dataDir);
}

/** Whether `folder` holds a PostgreSQL data folder (PGlite's). */
export const holdsDatabase = (folder: string): boolean => existsSync(path.join(folder, 'PG_VERSION'));

/** Takes the folder for `holder`, or refuses with `advice` when a live process (the server) holds it. */
export async function holdFolder(folder: string, holder: string, advice: string): Promise<() => void> {
  try {
    return await holdDataDir(folder, holder);
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    throw new OperatorError(`The data folder ${folder} is in use by ${error.holder}: ${advice}`);
  }
}

/** A PGlite instance seen as the query layer sees a database. */
export function queryableOf(lite: PGlite): Queryable {
  return {
    async query<T extends Row>(sql: string, params?: readonly unknown[]): Promise<T[]> {
      return (await lite.query<T>(sql, params ? [...params] : undefined)).rows;
    },
  };
}
