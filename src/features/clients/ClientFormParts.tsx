// The parts of the client form's view: the current step with its buttons, and the notes over the
// form (no organisation, a restored draft, a failed save).
import { Link as RouterLink } from 'react-router';
import { Alert, AlertTitle, Box, Button, CircularProgress, LinearProgress, Typography } from '@mui/material';
import { SUPER_ADMIN_CANNOT_CREATE } from '../../../schemas/ids';
import { useDisplayContext } from '../../components/entity';
import { FieldGrid } from '../../components/entity/FieldGrid';
import { FileSlots, type ExistingImage } from '../../components/images';
import { formatDateTime, isQuotaError } from '../../lib/ui';
import { useSay } from '../../lib/session';
import { BasicServicesStep } from './BasicServicesStep';
import { ClientSections, fileSlots } from './ClientSections';
import { clientPath } from './paths';
import { isSubPart, profile, STEPS, SUB_PARTS, SUB_RECORDS } from './steps';
import { valuesOf, type ClientFormController, type FieldStep } from './useClientForm';

type FormPart = { form: ClientFormController };

/** A photo or document going to the server: which one and how much of it has left. */
function FileProgress({ sending }: { sending: { slot: string; sent: number } }) {
  const say = useSay();
  const percent = Math.round(sending.sent * 100);
  const label = say('clients.form.sendingFile', { file: say(`enum.profileImage.img_for.${sending.slot}`), percent });
  return (
    <Box sx={{ mt: 2 }} data-testid="file-upload-progress">
      <Typography variant="body2" id="file-upload-progress-label">
        {label}
      </Typography>
      <LinearProgress variant="determinate" value={percent} aria-labelledby="file-upload-progress-label" />
    </Box>
  );
}

function FieldStepBody({ form, s }: FormPart & { s: FieldStep }) {
  const ctx = useDisplayContext();
  return (
    <FieldGrid
      entity={s === 'identity' ? profile : SUB_RECORDS[s]}
      fields={form.fieldsOf(s)}
      values={form.valuesOf(s)}
      errors={form.errorsOf(s)}
      idPrefix={`client-${s}`}
      ctx={ctx}
      disabled={form.saving}
      editing={form.editing}
      stored={form.stored?.profile}
      onChange={(name, value) => form.setValue(s, name, value)}
      onBlur={(name) => form.leave(s, name)}
    />
  );
}

function StepBody({ form, storedFiles }: FormPart & { storedFiles: readonly ExistingImage[] }) {
  const ctx = useDisplayContext();
  const s = form.step;
  if (s === 'identity' || isSubPart(s)) return <FieldStepBody form={form} s={s} />;
  if (s === 'services') return <BasicServicesStep value={form.reg.bsp} onChange={form.setBsp} ctx={ctx} disabled={form.saving} />;
  if (s === 'files')
    return <FileSlots slots={fileSlots(ctx)} existing={storedFiles} value={form.files} onChange={form.setFiles} disabled={form.saving} />;
  const { profileValues, records } = valuesOf(form.reg);
  return (
    <ClientSections
      profileValues={profileValues}
      bsp={form.reg.bsp}
      records={Object.fromEntries(SUB_PARTS.map((p) => [p, records[p] ?? null]))}
      existingFiles={storedFiles}
      fileChanges={form.files}
      ctx={ctx}
      action={{ go: (to) => form.goTo(STEPS.indexOf(to)) }}
      identityFields={form.fieldsOf('identity')}
    />
  );
}

function StepButtons({ form }: FormPart) {
  const say = useSay();
  const { saving, step, reg, isLast, editing } = form;
  const saveButton = (
    <Button
      variant="contained"
      onClick={() => void form.save()}
      disabled={saving}
      startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
    >
      {saving ? say('entityForm.saving') : say(form.failures.length ? 'clients.form.retry' : 'entityForm.save')}
    </Button>
  );
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end', mt: 2 }}>
      <Button onClick={form.cancel} disabled={saving} sx={{ mr: 'auto' }}>
        {say('entityForm.cancel')}
      </Button>
      {!form.section && reg.step > 0 && (
        <Button onClick={() => form.goTo(reg.step - 1)} disabled={saving}>
          {say('clients.form.back')}
        </Button>
      )}
      {!form.section && isSubPart(step) && !isLast && (
        <Button onClick={() => form.next(false)} disabled={saving}>
          {say('clients.form.skip')}
        </Button>
      )}
      {!form.section && !isLast && (
        <Button
          variant={editing ? 'outlined' : 'contained'}
          onClick={() => form.next(isSubPart(step) ? true : undefined)}
          disabled={saving}
        >
          {say('clients.form.next')}
        </Button>
      )}
      {(form.section || isLast || editing) && saveButton}
    </Box>
  );
}

/** The step shown: its title, its fields (or the review), the file being sent and the buttons. */
export function StepPanel({ form, storedFiles }: FormPart & { storedFiles: readonly ExistingImage[] }) {
  const say = useSay();
  const { step } = form;
  return (
    <Box component="section" aria-labelledby="client-step-title">
      <Typography id="client-step-title" component="h2" variant="h6" sx={{ mb: 2 }}>
        {say(`clients.steps.${step}`)}
        {isSubPart(step) && (
          <Typography component="span" variant="body2" color="text.secondary">
            {` — ${say(form.reg.included.includes(step) ? 'clients.form.included' : 'clients.form.optional')}`}
          </Typography>
        )}
      </Typography>
      <StepBody form={form} storedFiles={storedFiles} />
      {form.saving && form.sending && <FileProgress sending={form.sending} />}
      <StepButtons form={form} />
    </Box>
  );
}

export function ClientFormAlerts({ form }: FormPart) {
  const say = useSay();
  const { lang } = useDisplayContext();
  const { restored, failures } = form;
  return (
    <>
      {form.noOrganisation && (
        <Alert severity="error" data-testid="no-organisation">
          {SUPER_ADMIN_CANNOT_CREATE}
        </Alert>
      )}
      {form.showRestored && restored && (
        <Alert
          severity="info"
          data-testid="draft-restored"
          action={
            <Button color="inherit" size="small" onClick={form.discardDraft}>
              {say('entityForm.discardDraft')}
            </Button>
          }
        >
          {say(form.wholeDraft ? 'clients.form.restoredWhole' : 'clients.form.restored', { time: formatDateTime(restored.savedAt, lang) })}
        </Alert>
      )}
      {form.profileError && (
        <Alert severity="error" role="alert" data-testid="client-save-error">
          <AlertTitle>{say('clients.error.profile')}</AlertTitle>
          {form.profileError}
        </Alert>
      )}
      {failures.length > 0 && (
        <Alert severity="error" role="alert" data-testid="client-part-errors">
          <AlertTitle>{say('clients.error.parts')}</AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {failures.map((f) => (
              <li
                key={f.part}
              >{`${say(`clients.steps.${f.part === 'profile' ? 'identity' : f.part}`)}: ${isQuotaError(f.error) ? say('offline.quota.text') : f.message}`}</li>
            ))}
          </Box>
          <Button component={RouterLink} to={clientPath(form.reg.profId)} size="small" color="inherit">
            {say('clients.form.openClient')}
          </Button>
        </Alert>
      )}
    </>
  );
}
