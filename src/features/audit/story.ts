// A record's history as a story (docs/adr/0048-first-day-screens.md "A history that reads as a story"): the log
// itself stays complete on the server; this only chooses what a reader is shown of it. Changes
// only (an update that changed nothing is left out), the fields of the screen (not the
// bookkeeping of a file record), the views of one file counted together, and a referral's
// follow-up with its note.
import { getEntity } from '../../../schemas/index';
import type { EntityShape } from '../../../schemas/define';
import { fieldOf } from '../../components/entity/fields';
import type { AuditEntry } from './types';

export interface StoryItem {
  /** The newest entry of the item (for a group of views, the last view). */
  entry: AuditEntry;
  /** How many entries it stands for (views of one file); 1 otherwise. */
  count: number;
  /** The changed fields worth naming, in the entry's order. */
  fields: string[];
  /** A referral follow-up's note (its feedback as saved). */
  followUp?: string;
}

/** Fields no screen shows: the bookkeeping of every record. */
const BOOKKEEPING = new Set(['deleted', 'history', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'syncState', 'syncOp', 'syncError']);
/** Records whose changes are told by their action and note (a photo added, removed, viewed). */
const FILE_ENTITIES = new Set(['profileImage', 'file']);
const FOLLOW_UP_ENTITIES = new Set(['referral', 'jobReferral']);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The fields of an entry a reader is told about. */
export function shownFields(entry: AuditEntry, entity: EntityShape | undefined): string[] {
  if (entry.action.startsWith('image.') || (entry.entity && FILE_ENTITIES.has(entry.entity))) return [];
  const named = [...new Set([...entry.fields, ...Object.keys(entry.changes ?? {})])];
  return named.filter((name) => {
    if (BOOKKEEPING.has(name)) return false;
    if (entity?.keyFields.includes(name)) return false; // the record's key ("Client id"): the entry is about it
    if (entity && !fieldOf(entity, name)) return false;
    const change = entry.changes?.[name];
    return !change || !same(change.before, change.after);
  });
}

function followUpOf(entry: AuditEntry): string | undefined {
  if (entry.action !== 'update' || !entry.entity || !FOLLOW_UP_ENTITIES.has(entry.entity)) return undefined;
  const after = entry.changes?.feedback?.after;
  return typeof after === 'string' && after.trim() ? after : undefined;
}

/** The entries (newest first) as the items a reader sees, newest first. */
export function storyOf(entries: readonly AuditEntry[]): StoryItem[] {
  const items: StoryItem[] = [];
  const views = new Map<string, StoryItem>();
  for (const entry of entries) {
    if (entry.action === 'file.download') {
      const key = `${entry.entity ?? ''}/${entry.recordId ?? ''}/${entry.note ?? ''}`;
      const group = views.get(key);
      if (group) group.count += 1;
      else {
        const item: StoryItem = { entry, count: 1, fields: [] };
        views.set(key, item);
        items.push(item);
      }
      continue;
    }
    const fields = shownFields(entry, entry.entity ? getEntity(entry.entity) : undefined);
    const followUp = followUpOf(entry);
    // An update that changed nothing a reader can see is no event (a file's additions and
    // removals have their own actions, image.add and image.remove).
    if (entry.action === 'update' && fields.length === 0 && !entry.note && !followUp) continue;
    items.push({ entry, count: 1, fields, ...(followUp ? { followUp } : {}) });
  }
  return items;
}
