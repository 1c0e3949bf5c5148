// The item dialog's controller: the values typed, the problems found as the server finds them
// (a label required, at most 200 characters, unlike the list's other labels; an organisation's
// abbreviation; a service type's category), shown once a save was tried, and the save itself.
import { useState, type FormEvent } from 'react';
import { messageOf } from '../../components/entity';
import { useSay, type Say } from '../../lib/session';
import type { Item, NewItem } from './listsApi';

export const LABEL_MAX = 200;
const ABBR = /^[A-Z0-9]{1,12}$/;

export type ItemValues = { fr: string; en: string; abbr: string; parent: string; active: boolean };
export type ItemProblems = Partial<Record<keyof ItemValues, string>>;

export interface ItemDialogInput {
  listKey: string;
  /** The item edited; undefined adds one. */
  item?: Item;
  /** The other items of the list (labels must differ). */
  others: readonly Item[];
  /** Items a service type may belong to (the category list). */
  parents?: readonly Item[];
  onSave: (values: NewItem & { active: boolean }) => Promise<void>;
}

const same = (a: string, b: string | undefined) => b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/** What is wrong with the values, by field, in the user's language. */
function problemsOf(values: ItemValues, others: readonly Item[], withAbbr: boolean, withParent: boolean, say: Say): ItemProblems {
  const problems: ItemProblems = {};
  for (const lang of ['fr', 'en'] as const) {
    const text = values[lang].trim();
    const field = say(`lists.item.${lang}`);
    if (!text) problems[lang] = say('entityForm.error.required', { field });
    else if (text.length > LABEL_MAX) problems[lang] = say('entityForm.error.maxLength', { field, limit: LABEL_MAX, count: text.length });
    else if (others.some((other) => same(text, other[lang]))) problems[lang] = say('lists.item.taken', { field });
  }
  if (withAbbr) {
    const abbr = values.abbr.trim();
    const field = say('lists.item.abbr');
    if (!abbr) problems.abbr = say('entityForm.error.required', { field });
    else if (!ABBR.test(abbr)) problems.abbr = say('lists.item.abbrRule');
    else if (others.some((other) => same(abbr, other.abbr))) problems.abbr = say('lists.item.taken', { field });
  }
  if (withParent && !values.parent) problems.parent = say('entityForm.error.required', { field: say('lists.item.parent') });
  return problems;
}

export function useItemDialog({ listKey, item, others, parents, onSave }: ItemDialogInput) {
  const say = useSay();
  const withAbbr = listKey === 'organisation';
  const withParent = parents !== undefined;
  const [values, setValues] = useState<ItemValues>({
    fr: item?.fr ?? '',
    en: item?.en ?? '',
    abbr: item?.abbr ?? '',
    parent: item?.parent ? String(item.parent) : '',
    active: item?.active ?? true,
  });
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string>();
  const problems = problemsOf(values, others, withAbbr, withParent, say);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setAttempted(true);
    if (Object.keys(problems).length) return;
    setSaving(true);
    setFailure(undefined);
    try {
      await onSave({
        fr: values.fr.trim(),
        en: values.en.trim(),
        ...(withAbbr ? { abbr: values.abbr.trim() } : {}),
        ...(withParent ? { parent: Number(values.parent) } : {}),
        active: values.active,
      });
    } catch (error) {
      setFailure(messageOf(error));
      setSaving(false);
    }
  };

  return {
    values,
    withAbbr,
    withParent,
    /** An abbreviation once given is kept: registration numbers start with it (product.md §5). */
    abbrLocked: item?.abbr !== undefined && item.abbr !== '',
    saving,
    /** The server's word when the save was refused. */
    failure,
    /** A field's problem, once a save was tried. */
    shown: (name: keyof ItemValues) => (attempted ? problems[name] : undefined),
    /** A typed value (an abbreviation in capitals). */
    set: (name: keyof ItemValues, value: string) => setValues((v) => ({ ...v, [name]: name === 'abbr' ? value.toUpperCase() : value })),
    setActive: (active: boolean) => setValues((v) => ({ ...v, active })),
    submit,
  };
}
