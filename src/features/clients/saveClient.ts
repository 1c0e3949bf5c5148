// Saving a client with its records and files, online and offline, through the data layer, in
// the spec's order (§4): the profile, then skills, social, security and business start, then
// the photo and documents. A part that fails does not undo the others: the form keeps the
// profile and what worked, says which part failed, and a second save sends only the rest.
import type { ImageChanges } from '../../components/images';
import { messageOf } from '../../components/entity';
import type { DataLayer, Doc, UploadProgress, Values } from '../../lib/data';
import { profile, SUB_RECORDS, type SubPart } from './steps';

export type ClientDoc = Doc<typeof profile>;
export type SavePart = 'profile' | SubPart | 'files';

export interface ClientSaveInput {
  data: DataLayer;
  /** Saves on this device only: the records of a client that is itself still waiting here go
   * with it at the upload (parent before child), never before it. */
  local: DataLayer;
  profId: string;
  /** True when the client is stored already (an edit, or a retry after a part failed). */
  exists: boolean;
  /** The version of the profile the form was opened on (DataLayer.update's basedOn). */
  basedOn?: string;
  profileValues: Values;
  /** The records to save, with their stored version when they exist. */
  records: Partial<Record<SubPart, { values: Values; exists: boolean; basedOn?: string }>>;
  files: ImageChanges;
  /** Parts saved by an earlier attempt of this form: not sent again. */
  done: ReadonlySet<SavePart>;
  /** Hears the photo and documents being sent online (product.md §7 progress events). */
  onFileProgress?: UploadProgress;
}

export interface PartFailure {
  part: SavePart;
  message: string;
  error: unknown;
}

export interface ClientSaveResult {
  profile: ClientDoc;
  done: Set<SavePart>;
  failures: PartFailure[];
}

/** The profile failed: nothing else was tried. */
export class ProfileNotSaved extends Error {
  constructor(override readonly cause: unknown) {
    super(messageOf(cause));
    this.name = 'ProfileNotSaved';
  }
}

function waitsHere(doc: { syncState?: unknown; syncOp?: unknown }): boolean {
  return doc.syncState === 'pending' && doc.syncOp === 'create';
}

async function saveProfile(input: ClientSaveInput): Promise<ClientDoc> {
  const { data, profId } = input;
  if (input.done.has('profile')) {
    const stored = await data.get(profile, profId);
    if (stored) return stored;
  }
  if (input.exists) return data.update(profile, profId, input.profileValues, [], { basedOn: input.basedOn });
  return data.create(profile, { ...input.profileValues, prof_Id: profId });
}

async function saveRecord(layer: DataLayer, input: ClientSaveInput, part: SubPart): Promise<void> {
  const record = input.records[part];
  if (!record) return;
  const entity = SUB_RECORDS[part];
  if (record.exists) await layer.update(entity, input.profId, record.values, [], { basedOn: record.basedOn });
  else await layer.create(entity, { ...record.values, prof_Id: input.profId });
}

function hasFileWork(files: ImageChanges): boolean {
  return files.images.length > 0 || files.removeImages.length > 0;
}

export async function saveClient(input: ClientSaveInput): Promise<ClientSaveResult> {
  let saved: ClientDoc;
  try {
    saved = await saveProfile(input);
  } catch (error) {
    throw new ProfileNotSaved(error);
  }
  const done = new Set(input.done).add('profile');
  const failures: PartFailure[] = [];
  const layer = waitsHere(saved) ? input.local : input.data;
  for (const part of Object.keys(SUB_RECORDS) as SubPart[]) {
    if (done.has(part) || !input.records[part]) continue;
    try {
      await saveRecord(layer, input, part);
      done.add(part);
    } catch (error) {
      failures.push({ part, message: messageOf(error), error });
    }
  }
  if (!done.has('files') && hasFileWork(input.files)) {
    try {
      await input.data.saveProfileImages(input.profId, input.files.images, input.files.removeImages, input.onFileProgress);
      done.add('files');
    } catch (error) {
      failures.push({ part: 'files', message: messageOf(error), error });
    }
  }
  return { profile: saved, done, failures };
}
