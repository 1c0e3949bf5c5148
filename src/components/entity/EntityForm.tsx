// An add/edit form generated from an entity's declaration (product.md §D5): one input per field,
// the server's validation rules checked as the user types and on submit, the server's own
// field errors shown where they belong, and an unsaved draft that survives a reload.
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, AlertTitle, Box, Button, CircularProgress } from '@mui/material';
import type { EntityShape, Field } from '../../../schemas/define';
import { formatDateTime } from '../../lib/format';
import { isQuotaError } from '../../lib/quota';
import type { Draft } from './drafts';
import { draftKey } from './drafts';
import { messageOf, serverFieldErrors, type FieldMessage } from './errors';
import { fieldLabel, requireField, type DisplayContext } from './fields';
import { FieldGrid } from './FieldGrid';
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

function DraftNotice({ restored, base, ctx, onDiscard }: { restored: Draft; base?: string; ctx: DisplayContext; onDiscard: () => void }) {
  const outdated = base && restored.base && restored.base !== base;
  return (
    <Alert
      severity="info"
      action={
        <Button color="inherit" size="small" onClick={onDiscard}>
          {ctx.t('entityForm.discardDraft')}
        </Button>
      }
    >
      {ctx.t('entityForm.draftRestored', { time: formatDateTime(restored.savedAt, ctx.lang) })}
      {outdated ? ` ${ctx.t('entityForm.draftOutdated')}` : ''}
    </Alert>
  );
}

/** The save failed because the device is full: said in words, as the toast says it. */
function StorageFull({ ctx }: { ctx: DisplayContext }) {
  return (
    <Alert severity="error" role="alert" data-testid="form-storage-full">
      <AlertTitle>{ctx.t('offline.quota.title')}</AlertTitle>
      {ctx.t('offline.quota.text')}
    </Alert>
  );
}

function ErrorSummary({ lines, ctx }: { lines: readonly string[]; ctx: DisplayContext }) {
  if (!lines.length) return null;
  return (
    <Alert severity="error" role="alert" data-testid="form-errors">
      {ctx.t('entityForm.fixErrors', { count: lines.length })}
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </Box>
    </Alert>
  );
}

export function EntityForm(props: EntityFormProps) {
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
  const say = (name: string, p: Problem) => ctx.t(p.id, { field: label(name), ...localDates(p.values, ctx.lang) });
  const errors: Record<string, string> = {};
  for (const name of Object.keys(raw)) {
    const p = problems[name];
    const message = server.fields[name] ?? (p && (touched[name] || attempted) ? say(name, p) : undefined);
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
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
    ...(attempted ? Object.entries(problems).map(([name, p]) => say(name, p)) : []),
    ...Object.values(server.fields),
    ...server.general,
  ];
  const api: FormApi = { values: raw, setValue, errors, saving };
  const busy = saving || props.disabled === true;

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event: FormEvent) => void submit(event)}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      aria-busy={saving}
    >
      {showDraftNotice && form.restored && <DraftNotice restored={form.restored} base={form.base} ctx={ctx} onDiscard={discardDraft} />}
      {server.storageFull && <StorageFull ctx={ctx} />}
      <ErrorSummary lines={summary} ctx={ctx} />
      <FieldGrid
        entity={entity}
        fields={shown}
        values={raw}
        errors={errors}
        idPrefix={formId}
        ctx={ctx}
        disabled={busy}
        editing={recordKey !== undefined}
        stored={initialValues}
        onChange={setValue}
        onBlur={(name) => setTouched((t) => (t[name] ? t : { ...t, [name]: true }))}
        required={props.required?.(raw)}
      />
      {typeof props.children === 'function' ? props.children(api) : props.children}
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
        {props.onCancel && (
          <Button
            onClick={() => {
              draft.close();
              props.onCancel?.();
            }}
            disabled={saving}
          >
            {ctx.t('entityForm.cancel')}
          </Button>
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={busy}
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {saving ? ctx.t('entityForm.saving') : (props.submitLabel ?? ctx.t('entityForm.save'))}
        </Button>
      </Box>
    </Box>
  );
}

function omit(record: Record<string, string>, name: string): Record<string, string> {
  const { [name]: _gone, ...rest } = record;
  return rest;
}
