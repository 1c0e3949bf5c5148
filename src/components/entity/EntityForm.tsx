// An add/edit form generated from an entity's declaration (product.md §D5): one input per field,
// the server's validation rules checked as the user types and on submit, the server's own
// field errors shown where they belong, and an unsaved draft that survives a reload.
import type { FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { Alert, AlertTitle, Box, Button, CircularProgress } from '@mui/material';
import { formatDateTime } from '../../lib/ui';
import { useSay } from '../../lib/session';
import type { Draft } from './drafts';
import { FieldGrid } from './FieldGrid';
import { langOf } from './lookups';
import { useEntityForm, type EntityFormProps } from './useEntityForm';

export { placeServerErrors, type EntityFormProps, type FormApi } from './useEntityForm';

function DraftNotice({ restored, base, onDiscard }: { restored: Draft; base?: string; onDiscard: () => void }) {
  const say = useSay();
  const lang = langOf(useIntl().locale);
  const outdated = base && restored.base && restored.base !== base;
  return (
    <Alert
      severity="info"
      action={
        <Button color="inherit" size="small" onClick={onDiscard}>
          {say('entityForm.discardDraft')}
        </Button>
      }
    >
      {say('entityForm.draftRestored', { time: formatDateTime(restored.savedAt, lang) })}
      {outdated ? ` ${say('entityForm.draftOutdated')}` : ''}
    </Alert>
  );
}

/** The save failed because the device is full: said in words, as the toast says it. */
function StorageFull() {
  const say = useSay();
  return (
    <Alert severity="error" role="alert" data-testid="form-storage-full">
      <AlertTitle>{say('offline.quota.title')}</AlertTitle>
      {say('offline.quota.text')}
    </Alert>
  );
}

function ErrorSummary({ lines }: { lines: readonly string[] }) {
  const say = useSay();
  if (!lines.length) return null;
  return (
    <Alert severity="error" role="alert" data-testid="form-errors">
      {say('entityForm.fixErrors', { count: lines.length })}
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </Box>
    </Alert>
  );
}

export function EntityForm(props: EntityFormProps) {
  const form = useEntityForm(props);
  const { saving, busy } = form;
  const say = useSay();
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event: FormEvent) => void form.submit(event)}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      aria-busy={saving}
    >
      {form.restored && <DraftNotice restored={form.restored} base={form.base} onDiscard={form.discardDraft} />}
      {form.storageFull && <StorageFull />}
      <ErrorSummary lines={form.summary} />
      <FieldGrid
        entity={props.entity}
        fields={form.shown}
        values={form.values}
        errors={form.errors}
        idPrefix={form.formId}
        ctx={form.ctx}
        disabled={busy}
        editing={props.recordKey !== undefined}
        stored={props.initialValues ?? {}}
        onChange={form.setValue}
        onBlur={form.leave}
        required={props.required?.(form.values)}
      />
      {typeof props.children === 'function' ? props.children(form.api) : props.children}
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end', flexWrap: 'wrap' }}>
        {props.onCancel && (
          <Button onClick={form.cancel} disabled={saving}>
            {say('entityForm.cancel')}
          </Button>
        )}
        <Button
          type="submit"
          variant="contained"
          disabled={busy}
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {saving ? say('entityForm.saving') : (props.submitLabel ?? say('entityForm.save'))}
        </Button>
      </Box>
    </Box>
  );
}
