// After a conflict the form reopens on the server's new copy. Its draft holds every field the
// form had, typed or not: restored whole, it would put back the old values of the fields a
// colleague just changed. Only the fields this user changed are kept, so the form shows the
// colleague's changes with this user's over them (a three-way merge, field by field).
import { draftKey, loadDraft } from '../../components/entity';
import { saveDraft } from '../../components/entity/drafts';

const normal = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** Keeps in the draft of `entity`/`key` only the values that differ from `base`, the copy the
 * edit started from. */
export function rebaseDraft(entity: string, key: string, base: Readonly<Record<string, unknown>>): void {
  const name = draftKey(entity, key);
  const draft = loadDraft(name);
  if (!draft) return;
  const changed = Object.fromEntries(Object.entries(draft.values).filter(([field, value]) => normal(value) !== normal(base[field])));
  saveDraft(name, { ...draft, values: changed });
}
