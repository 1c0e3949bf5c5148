// The entity form's controller: the values (the record's, or a restored draft over them), the
// server's rules checked as the user types and on submit, the server's own field errors placed
// on the fields, and the save. The view (EntityForm.tsx) draws what it returns.
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { EntityShape, Field } from '../../../schemas/define';
import { isQuotaError } from '../../lib/ui';
import { draftKey } from './drafts';
import { messageOf, serverFieldErrors, type FieldMessage } from '../../lib/http';
import { fieldLabel, requireField } from './fields';
import { defaultFormFields, initialRaw, sameValues, withDraft } from './formState';
import { useDisplayContext } from './useDisplayContext';
import { useDraft, useRestoredDraft } from './useDraft';
import { localDates, validateValues, writableFieldMap, type Problem, type RawValues } from './validation';

/** What the extra content of a form (images, location picker) can read and set. */
export interface FormApi {
  values: RawValues;
  setValue: (name: string, value: unknown) => void;
  /** Translated messages by field name (lat, lng, …). */
  errors: Readonly<Record<string, string>>;
  saving: boolean;
}

export interface EntityFormProps {
  entity: EntityShape;
  /** Fields shown, in order; default: every writable field but keys, parents, coordinates and
   * structured data. Other writable values of `initialValues` are kept and sent as they are. */
  fields?: readonly string[];
  /** The record being edited, or the fixed values of a new one (its parent key). Read when the
   * form mounts: mount it once the record is loaded. */
  initialValues?: Readonly<Record<string, unknown>>;
  /** Key of the record being edited; absent for a new one. Names the draft. */
  recordKey?: string;
  /** Saves the API values (null clears a field). A 400 with `errors` is shown on the fields. */
  onSubmit: (values: Record<string, unknown>) => Promise<void> | void;
  onCancel?: () => void;
  /** Failures that are not field errors (a conflict, a network error), after the form shows them. */
  onError?: (error: unknown) => void;
  /** Cross-field rules of a screen: problems (message ids) by field name. */
  validate?: (values: Record<string, unknown>) => Record<string, Problem>;
  /** Fields required or not depending on the values (FieldGrid `required`): how they are marked. */
  required?: (values: RawValues) => Record<string, boolean>;
  submitLabel?: string;
  disabled?: boolean;
  /** Keep a draft in localStorage (default true). */
  keepDraft?: boolean;
  /** Extra content below the fields (images, location), with access to the form's values. */
  children?: ReactNode | ((form: FormApi) => ReactNode);
}

/** Server messages: by field for the fields the form holds (shown, or set by its extra
 * content such as lat/lng), the rest for the summary only. */
interface ServerMessages {
  fields: Record<string, string>;
  general: string[];
  /** The device's storage is full: nothing the user typed is wrong (ADR-0025). */
  storageFull?: boolean;
}

const NO_SERVER: ServerMessages = { fields: {}, general: [] };

/** "sp_Name must have at most 200 characters" → "Name must have …": the server names fields
 * by their code name; people know them by their label. */
export function placeServerErrors(
  list: readonly FieldMessage[],
  held: readonly string[],
  known: Readonly<Record<string, Field>>,
  label: (name: string) => string,
): ServerMessages {
  const out: ServerMessages = { fields: {}, general: [] };
  for (const { field, message } of list) {
    const text = field in known && message.startsWith(field) ? `${label(field)}${message.slice(field.length)}` : message;
    if (held.includes(field)) out.fields[field] = text;
    else out.general.push(text);
  }
  return out;
}

/** The form's values: the record's (or defaults), with a restored draft over them, kept in
 * localStorage while they differ from what was loaded or last saved. */
function useFormValues(
  entity: EntityShape,
  shown: readonly string[],
  initialValues: Readonly<Record<string, unknown>>,
  recordKey: string | undefined,
  keepDraft: boolean,
) {
  const parentKey = entity.parent ? (initialValues[entity.parent.field] as string | undefined) : undefined;
  const key = draftKey(entity.name, recordKey, parentKey);
  const base = typeof initialValues.updatedAt === 'string' ? initialValues.updatedAt : undefined;
  const [baseline, setBaseline] = useState(() => initialRaw(entity, shown, initialValues));
  const restored = useRestoredDraft(key, keepDraft);
  const [raw, setRaw] = useState<RawValues>(() => withDraft(entity, baseline, restored?.values));
  const draft = useDraft(key, keepDraft, raw, baseline, base);
  return { raw, setRaw, baseline, setBaseline, restored, draft, base };
}

export function useEntityForm(props: EntityFormProps) {
  const { entity, initialValues = {}, recordKey, keepDraft = true } = props;
  const ctx = useDisplayContext();
  const formId = useId();
  const shown = useMemo(() => props.fields ?? defaultFormFields(entity), [props.fields, entity]);
  for (const name of shown) requireField(entity, name, 'EntityForm');
  const form = useFormValues(entity, shown, initialValues, recordKey, keepDraft);
  const { raw, setRaw, baseline, draft } = form;
  const [showDraftNotice, setShowDraftNotice] = useState(() => form.restored !== null && !sameValues(raw, baseline));
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [server, setServer] = useState<ServerMessages>(NO_SERVER);
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);

  const fieldsByName = writableFieldMap(entity);
  const check = validateValues(entity, raw);
  const problems: Record<string, Problem> = { ...props.validate?.(check.values), ...check.problems };
  const label = (name: string) => fieldLabel(entity, name, ctx.t);
  const sayProblem = (name: string, p: Problem) => ctx.t(p.id, { field: label(name), ...localDates(p.values, ctx.lang) });
  const errors: Record<string, string> = {};
  for (const name of Object.keys(raw)) {
    const p = problems[name];
    const message = server.fields[name] ?? (p && (touched[name] || attempted) ? sayProblem(name, p) : undefined);
    if (message) errors[name] = message;
  }

  const setValue = (name: string, value: unknown) => {
    setRaw((current) => ({ ...current, [name]: value }));
    if (server.fields[name]) setServer((s) => ({ ...s, fields: omit(s.fields, name) }));
  };

  const focusFirst = (names: readonly string[]) => {
    const first = [...shown, ...Object.keys(raw)].find((name) => names.includes(name));
    if (first) document.getElementById(`${formId}-${first}`)?.focus();
  };

  const failed = (error: unknown) => {
    if (isQuotaError(error)) {
      setServer({ ...NO_SERVER, storageFull: true });
      props.onError?.(error);
      return;
    }
    const list = serverFieldErrors(error);
    const placed = list.length
      ? placeServerErrors(list, Object.keys(raw), fieldsByName, label)
      : { fields: {}, general: [messageOf(error)] };
    setServer(placed);
    focusFirst(Object.keys(placed.fields));
    if (!list.length) props.onError?.(error);
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    setAttempted(true);
    setServer(NO_SERVER);
    if (Object.keys(problems).length) return focusFirst(Object.keys(problems));
    setSaving(true);
    try {
      await props.onSubmit(check.values);
      draft.close();
      form.setBaseline(raw);
      setShowDraftNotice(false);
    } catch (error) {
      failed(error);
    } finally {
      setSaving(false);
    }
  };

  const discardDraft = () => {
    draft.discard();
    setRaw(baseline);
    setShowDraftNotice(false);
  };

  const summary = [
    ...(attempted ? Object.entries(problems).map(([name, p]) => sayProblem(name, p)) : []),
    ...Object.values(server.fields),
    ...server.general,
  ];

  return {
    ctx,
    formId,
    shown,
    values: raw,
    errors,
    /** The problems and the server's messages, for the summary over the form. */
    summary,
    saving,
    /** Saving, or the screen disabled the form. */
    busy: saving || props.disabled === true,
    storageFull: server.storageFull === true,
    /** The restored draft while its notice shows, and the version it started from. */
    restored: showDraftNotice ? form.restored : null,
    base: form.base,
    setValue,
    leave: (name: string) => setTouched((t) => (t[name] ? t : { ...t, [name]: true })),
    submit,
    discardDraft,
    /** Cancelled: the draft is forgotten. */
    cancel: () => {
      draft.close();
      props.onCancel?.();
    },
    /** What the form's extra content reads and sets. */
    api: { values: raw, setValue, errors, saving } satisfies FormApi,
  };
}

function omit(record: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _gone, ...rest } = record;
  return rest;
}
