// /profiles/add and /profiles/edit/:profId: the client step form (issue 11). One step per part
// of a client (identity, basic services, skills, social, security, business start, photo and
// documents) and a review; vertical on a phone. Each step checks its fields with the server's
// rules before the next; the optional records can be skipped; the whole registration is kept as
// a draft until it is saved, online to the API in the spec's order, offline in the store.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { isAxiosError } from 'axios';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  LinearProgress,
  Step,
  StepButton,
  StepContent,
  StepLabel,
  Stepper,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { SUPER_ADMIN_CANNOT_CREATE } from '../../../schemas/ids';
import { recordTitle } from '../../../schemas/index';
import { FullPageSpinner, Page, useSessionUser } from '../../components';
import { RecordGate } from '../../components/RecordGate';
import { fieldLabel, messageOf, useDisplayContext, type DisplayContext } from '../../components/entity';
import { ConflictError } from '../../lib/datalayer';
import { FieldGrid } from '../../components/entity/FieldGrid';
import { localDates, validateValues, type RawValues } from '../../components/entity/validation';
import { FileSlots, NO_IMAGE_CHANGES, type ExistingImage, type ImageChanges } from '../../components/images';
import { organisationAbbr } from '../../lib/datalayer/lists';
import { useStoreSave } from '../../lib/db/useLocalDataLayer';
import { formatDateTime } from '../../lib/format';
import { notify } from '../../lib/notify';
import { isQuotaError } from '../../lib/quota';
import { reportSaveFailure } from '../offline';
import { BasicServicesStep } from './BasicServicesStep';
import { ClientSections, fileSlots } from './ClientSections';
import { clientPath, CLIENTS_PATH } from './paths';
import { PossibleDuplicates, useDuplicates } from './PossibleDuplicates';
import { changedSteps, firstInvalidStep, stepProblems, useClientDraft, type ClientDraft, type StoredClient } from './clientDraft';
import { ProfileNotSaved, saveClient, type PartFailure, type SavePart } from './saveClient';
import {
  IDENTITY_FIELDS,
  isSubPart,
  profile,
  STEPS,
  stepFields,
  SUB_PARTS,
  SUB_RECORDS,
  withIdentityShared,
  type StepId,
  type SubPart,
} from './steps';
import { recordsSettled, storedRecord, useClient, useClientFiles } from './useClient';

type Touched = Record<string, boolean>;

/** Messages of a step's fields: shown once a field was left, or the step was tried. */
function stepErrors(reg: ClientDraft, step: StepId, touched: Touched, tried: boolean, ctx: DisplayContext): Record<string, string> {
  const entity = step === 'identity' ? profile : isSubPart(step) ? SUB_RECORDS[step] : null;
  if (!entity) return {};
  const out: Record<string, string> = {};
  for (const [name, problem] of Object.entries(stepProblems(reg, step))) {
    if (!tried && !touched[`${step}.${name}`]) continue;
    const label = fieldLabel(entity, name, ctx.t);
    out[name] = ctx.t(problem.id, { field: label, ...localDates(problem.values, ctx.lang) });
  }
  return out;
}

/** The API values of the profile (its identity and BspData) and of each included record. */
function valuesOf(reg: ClientDraft) {
  const profileValues = { ...validateValues(profile, reg.identity).values, BspData: reg.bsp };
  const records: Partial<Record<SubPart, Record<string, unknown>>> = {};
  for (const part of reg.included)
    records[part] = withIdentityShared(part, validateValues(SUB_RECORDS[part], reg.parts[part]).values, profileValues);
  return { profileValues, records };
}

/** What saving one section sends: its record only (the profile is taken as it is stored), the
 * profile only for the identity and the basic services, the files only for the files. */
function sectionWork(
  section: StepId,
  records: Partial<Record<SubPart, Record<string, unknown>>>,
  files: ImageChanges,
): { records: Partial<Record<SubPart, Record<string, unknown>>>; files: ImageChanges; done: SavePart[] } {
  const own = isSubPart(section) && records[section] ? { [section]: records[section] } : {};
  const profileSaved = section !== 'identity' && section !== 'services';
  return {
    records: own,
    files: section === 'files' ? files : NO_IMAGE_CHANGES,
    done: profileSaved ? ['profile'] : [],
  };
}

/** A photo or document going to the server: which one and how much of it has left. */
function FileProgress({ sending, ctx }: { sending: { slot: string; sent: number }; ctx: DisplayContext }) {
  const percent = Math.round(sending.sent * 100);
  const label = ctx.t('clients.form.sendingFile', { file: ctx.t(`enum.profileImage.img_for.${sending.slot}`), percent });
  return (
    <Box sx={{ mt: 2 }} data-testid="file-upload-progress">
      <Typography variant="body2" id="file-upload-progress-label">
        {label}
      </Typography>
      <LinearProgress variant="determinate" value={percent} aria-labelledby="file-upload-progress-label" />
    </Box>
  );
}

/**
 * Whether a section edit (`asked`) shows the whole draft instead: the restored draft changed
 * other steps than that section, against the client as the form opened (`openedWith`, null when
 * no draft was restored). Once on, it stays on until the draft is discarded, so a step put back
 * by hand does not switch the screen under the worker.
 */
function useWholeDraft(asked: StepId | null, openedWith: StoredClient | null, reg: ClientDraft, pickedFiles: number) {
  const [base] = useState(openedWith);
  const [latched, setLatched] = useState(false);
  const elsewhere = asked && base ? changedSteps(reg, base, pickedFiles).some((s) => s !== asked) : false;
  // Latched while rendering (React's way to keep a value seen once), not in an effect.
  if (elsewhere && !latched) setLatched(true);
  const [discarded, setDiscarded] = useState(false);
  return {
    on: !discarded && (latched || elsewhere),
    off: () => setDiscarded(true),
  };
}

interface FormProps {
  /** The client edited, or null for a new one. */
  stored: StoredClient | null;
  storedFiles: readonly ExistingImage[];
  editedId: string | null;
  initialStep?: StepId;
}

function ClientForm({ stored, storedFiles, editedId, initialStep }: FormProps) {
  const ctx = useDisplayContext();
  const theme = useTheme();
  const vertical = useMediaQuery(theme.breakpoints.down('md'));
  const navigate = useNavigate();
  const storeSave = useStoreSave();
  const user = useSessionUser();
  const { reg, setReg, files, setFiles, restored, close, discard } = useClientDraft(stored, editedId, initialStep);
  const [touched, setTouched] = useState<Touched>({});
  const [tried, setTried] = useState<Set<StepId>>(new Set());
  const [saving, setSaving] = useState(false);
  const [failures, setFailures] = useState<PartFailure[]>([]);
  const [profileError, setProfileError] = useState<string | null>(null);
  /** The file being sent online and the share of it sent (product.md §7 progress events). */
  const [sending, setSending] = useState<{ slot: string; sent: number } | null>(null);
  const [showRestored, setShowRestored] = useState(restored !== null);
  const editing = editedId !== null;
  const asked = editing && initialStep && initialStep !== 'review' ? initialStep : null;
  const wholeDraft = useWholeDraft(asked, restored !== null ? stored : null, reg, files.images.length);
  /** An edit opened from one section of the client's page: that step alone, saved alone
   * (docs/adr/0048-first-day-screens.md "A section edit saves its section"), unless a draft changed other steps:
   * then the whole draft opens at that step ("A section edit never hides a draft"). */
  const section = wholeDraft.on ? null : asked;
  const step = section ?? STEPS[reg.step] ?? 'identity';
  const noOrganisation = !editing && !organisationAbbr(user, ctx.lists);
  const identity = validateValues(profile, reg.identity).values;
  const duplicateQuery =
    !editing && reg.reached > 0
      ? {
          firstName: identity.firstName as string,
          lastName: identity.lastName as string,
          birthDate: identity.birthDate as string,
          phone: identity.phone as string,
        }
      : null;
  const duplicates = useDuplicates(duplicateQuery);

  const goTo = (index: number) => setReg((r) => ({ ...r, step: index, reached: Math.max(r.reached, index) }));
  // On a phone the steps are one column: a new step opens below the finished ones, so it is
  // brought to the top of the screen, its title focused for a screen reader.
  const shownStep = useRef(reg.step);
  useEffect(() => {
    if (shownStep.current === reg.step) return;
    shownStep.current = reg.step;
    if (!vertical) return;
    const title = stepTitle(STEPS[reg.step]);
    title?.scrollIntoView({ block: 'start' });
    title?.focus({ preventScroll: true });
  }, [reg.step, vertical]);
  // Again once the new step has opened: the old step's fields leave at once and the new one's
  // open in its transition, so at the first scroll the page below the title may be too short to
  // bring it to the top (it stayed 300 px down on a phone). The step opens without an animation
  // for the same reason.
  const topOnceOpen = (s: StepId) => () => stepTitle(s)?.scrollIntoView({ block: 'start' });
  const tryStep = (s: StepId) => setTried((t) => new Set(t).add(s));
  const focusFirstError = (s: StepId) => {
    const first = Object.keys(stepProblems(reg, s))[0];
    if (first) setTimeout(() => document.getElementById(`client-${s}-${first}`)?.focus(), 0);
  };

  const next = (include?: boolean) => {
    if (isSubPart(step) && include !== undefined) {
      const part = step;
      setReg((r) => ({ ...r, included: include ? [...new Set([...r.included, part])] : r.included.filter((p) => p !== part) }));
      if (!include) return goTo(reg.step + 1);
    }
    const withPart = isSubPart(step) && include ? { ...reg, included: [...new Set([...reg.included, step])] } : reg;
    if (Object.keys(stepProblems(withPart, step)).length) {
      tryStep(step);
      return focusFirstError(step);
    }
    goTo(reg.step + 1);
  };

  const save = async () => {
    const invalid = section ? (Object.keys(stepProblems(reg, section)).length ? section : null) : firstInvalidStep(reg);
    if (invalid) {
      tryStep(invalid);
      goTo(STEPS.indexOf(invalid));
      return focusFirstError(invalid);
    }
    setSaving(true);
    setFailures([]);
    setProfileError(null);
    const { profileValues, records } = valuesOf(reg);
    const sent = section ? sectionWork(section, records, files) : { records, files, done: reg.done };
    const recordInput = Object.fromEntries(
      Object.entries(sent.records).map(([part, values]) => {
        const was = stored?.records[part as SubPart];
        const done = reg.done.includes(part as SubPart);
        return [part, { values, exists: Boolean(was) || done, basedOn: reg.basedOn[part as SubPart] }];
      }),
    );
    try {
      // Pressed before the store opened, the save waits for it under "Saving…", within the
      // save's one bound (useStoreSave).
      const result = await storeSave(({ data, local }) =>
        saveClient({
          data,
          local,
          profId: reg.profId,
          exists: reg.exists,
          basedOn: reg.basedOn.profile,
          profileValues,
          records: recordInput,
          files: sent.files,
          done: new Set(sent.done),
          onFileProgress: (slot, sent) => setSending({ slot, sent }),
        }),
      );
      if (result.failures.length) {
        setReg((r) => ({ ...r, exists: true, done: [...result.done] }));
        setFailures(result.failures);
        if (result.failures.some((f) => f.part === 'files')) setFiles({ images: files.images, removeImages: files.removeImages });
        return;
      }
      close();
      const waiting = result.profile.syncState === 'pending';
      notify.success(ctx.t('clients.saved', { regNo: result.profile.prof_Reg_No }), waiting ? ctx.t('clients.savedOffline') : '');
      void navigate(clientPath(reg.profId), { replace: true, state: { savedRegNo: result.profile.prof_Reg_No } });
    } catch (error) {
      const cause = error instanceof ProfileNotSaved ? error.cause : error;
      setProfileError(
        cause instanceof ConflictError
          ? ctx.t('clients.error.conflict')
          : isQuotaError(cause)
            ? ctx.t('offline.quota.text')
            : messageOf(cause),
      );
      // product.md §8 'Overall Save Profile Error': the save failed as a whole, nothing was stored. A
      // refused call was toasted by the interceptor in the server's words; this says what it means.
      if (isAxiosError(cause)) notify.error(ctx.t('errors.overallSaveProfileTitle'), ctx.t('clients.error.profile'));
      else reportSaveFailure('errors.overallSaveProfileTitle', cause, 'clients.error.conflict');
    } finally {
      setSaving(false);
      setSending(null);
    }
  };

  const cancel = () => {
    close();
    void navigate(editing ? clientPath(reg.profId) : CLIENTS_PATH);
  };

  const fieldsOf = (s: 'identity' | SubPart) =>
    s === 'identity' ? (editing ? ['prof_Reg_No', ...IDENTITY_FIELDS] : [...IDENTITY_FIELDS]) : stepFields(s);

  const fieldStep = (s: 'identity' | SubPart) => {
    const entity = s === 'identity' ? profile : SUB_RECORDS[s];
    const values = s === 'identity' ? reg.identity : reg.parts[s];
    const setValue = (name: string, value: unknown) =>
      setReg((r) =>
        s === 'identity'
          ? { ...r, identity: { ...r.identity, [name]: value } }
          : { ...r, parts: { ...r.parts, [s]: { ...r.parts[s], [name]: value } }, included: [...new Set([...r.included, s])] },
      );
    return (
      <FieldGrid
        entity={entity}
        fields={fieldsOf(s)}
        values={values as RawValues}
        errors={stepErrors(reg, s, touched, tried.has(s), ctx)}
        idPrefix={`client-${s}`}
        ctx={ctx}
        disabled={saving}
        editing={editing}
        stored={stored?.profile}
        onChange={setValue}
        onBlur={(name) => setTouched((t) => ({ ...t, [`${s}.${name}`]: true }))}
      />
    );
  };

  const review = () => {
    const { profileValues, records } = valuesOf(reg);
    const shownRecords = Object.fromEntries(SUB_PARTS.map((p) => [p, records[p] ?? null]));
    return (
      <ClientSections
        profileValues={profileValues}
        bsp={reg.bsp}
        records={shownRecords}
        existingFiles={storedFiles}
        fileChanges={files}
        ctx={ctx}
        action={{ go: (s) => goTo(STEPS.indexOf(s)) }}
        identityFields={fieldsOf('identity')}
      />
    );
  };

  const body = (s: StepId): ReactNode => {
    if (s === 'identity' || isSubPart(s)) return fieldStep(s);
    if (s === 'services')
      return <BasicServicesStep value={reg.bsp} onChange={(bsp) => setReg((r) => ({ ...r, bsp }))} ctx={ctx} disabled={saving} />;
    if (s === 'files')
      return <FileSlots slots={fileSlots(ctx)} existing={storedFiles} value={files} onChange={setFiles} disabled={saving} />;
    return review();
  };

  const isLast = reg.step === STEPS.length - 1;
  const saveButton = (
    <Button
      variant="contained"
      onClick={() => void save()}
      disabled={saving}
      startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
    >
      {saving ? ctx.t('entityForm.saving') : ctx.t(failures.length ? 'clients.form.retry' : 'entityForm.save')}
    </Button>
  );
  const buttons = section ? (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end', mt: 2 }}>
      <Button onClick={cancel} disabled={saving} sx={{ mr: 'auto' }}>
        {ctx.t('entityForm.cancel')}
      </Button>
      {saveButton}
    </Box>
  ) : (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end', mt: 2 }}>
      <Button onClick={cancel} disabled={saving} sx={{ mr: 'auto' }}>
        {ctx.t('entityForm.cancel')}
      </Button>
      {reg.step > 0 && (
        <Button onClick={() => goTo(reg.step - 1)} disabled={saving}>
          {ctx.t('clients.form.back')}
        </Button>
      )}
      {isSubPart(step) && !isLast && (
        <Button onClick={() => next(false)} disabled={saving}>
          {ctx.t('clients.form.skip')}
        </Button>
      )}
      {!isLast && (
        <Button variant={editing ? 'outlined' : 'contained'} onClick={() => next(isSubPart(step) ? true : undefined)} disabled={saving}>
          {ctx.t('clients.form.next')}
        </Button>
      )}
      {(isLast || editing) && saveButton}
    </Box>
  );

  const current = (
    <Box component="section" aria-labelledby="client-step-title">
      <Typography id="client-step-title" component="h2" variant="h6" sx={{ mb: 2 }}>
        {ctx.t(`clients.steps.${step}`)}
        {isSubPart(step) && (
          <Typography component="span" variant="body2" color="text.secondary">
            {` — ${ctx.t(reg.included.includes(step) ? 'clients.form.included' : 'clients.form.optional')}`}
          </Typography>
        )}
      </Typography>
      {body(step)}
      {saving && sending && <FileProgress sending={sending} ctx={ctx} />}
      {buttons}
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {noOrganisation && (
        <Alert severity="error" data-testid="no-organisation">
          {SUPER_ADMIN_CANNOT_CREATE}
        </Alert>
      )}
      {showRestored && restored && (
        <Alert
          severity="info"
          data-testid="draft-restored"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => {
                discard();
                wholeDraft.off();
                setShowRestored(false);
              }}
            >
              {ctx.t('entityForm.discardDraft')}
            </Button>
          }
        >
          {ctx.t(wholeDraft.on ? 'clients.form.restoredWhole' : 'clients.form.restored', {
            time: formatDateTime(restored.savedAt, ctx.lang),
          })}
        </Alert>
      )}
      {profileError && (
        <Alert severity="error" role="alert" data-testid="client-save-error">
          <AlertTitle>{ctx.t('clients.error.profile')}</AlertTitle>
          {profileError}
        </Alert>
      )}
      {failures.length > 0 && (
        <Alert severity="error" role="alert" data-testid="client-part-errors">
          <AlertTitle>{ctx.t('clients.error.parts')}</AlertTitle>
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {failures.map((f) => (
              <li
                key={f.part}
              >{`${ctx.t(`clients.steps.${f.part === 'profile' ? 'identity' : f.part}`)}: ${isQuotaError(f.error) ? ctx.t('offline.quota.text') : f.message}`}</li>
            ))}
          </Box>
          <Button component={RouterLink} to={clientPath(reg.profId)} size="small" color="inherit">
            {ctx.t('clients.form.openClient')}
          </Button>
        </Alert>
      )}
      <PossibleDuplicates rows={duplicates} ctx={ctx} />
      {section ? (
        <Card variant="outlined">
          <CardContent sx={{ p: { xs: 1.5, sm: 2 } }}>{current}</CardContent>
        </Card>
      ) : (
        <Card variant="outlined">
          <CardContent sx={{ p: { xs: 1.5, sm: 2 } }}>
            <Stepper
              activeStep={reg.step}
              orientation={vertical ? 'vertical' : 'horizontal'}
              nonLinear
              alternativeLabel={!vertical}
              sx={{ mb: vertical ? 0 : 3 }}
            >
              {STEPS.map((s, index) => {
                const optional = isSubPart(s) ? <Typography variant="caption">{ctx.t('clients.form.optional')}</Typography> : undefined;
                // A skipped optional record is not done: no tick.
                const skipped = isSubPart(s) && !reg.included.includes(s);
                const done = index < reg.reached && index !== reg.step && !skipped && Object.keys(stepProblems(reg, s)).length === 0;
                // On a phone the steps are a plain list with the current one open (Back and Next
                // move, the review's Edit buttons jump); on a wide screen each step is a tab.
                return (
                  <Step key={s} completed={done}>
                    {vertical ? (
                      <StepLabel
                        optional={optional}
                        id={`client-step-${s}`}
                        tabIndex={-1}
                        sx={{ scrollMarginTop: { xs: 64, sm: 72 }, outline: 'none' }}
                      >
                        {ctx.t(`clients.steps.${s}`)}
                      </StepLabel>
                    ) : (
                      <StepButton onClick={() => goTo(index)} disabled={saving || index > reg.reached} optional={optional}>
                        {ctx.t(`clients.steps.${s}`)}
                      </StepButton>
                    )}
                    {vertical && (
                      <StepContent
                        transitionDuration={0}
                        slotProps={{ transition: { onEntered: index === reg.step ? topOnceOpen(s) : undefined } }}
                      >
                        {index === reg.step && current}
                      </StepContent>
                    )}
                  </Step>
                );
              })}
            </Stepper>
            {!vertical && current}
          </CardContent>
        </Card>
      )}
    </Box>
  );
}

const stepTitle = (s: StepId | undefined) => (s ? document.getElementById(`client-step-${s}`) : null);

export function ClientAddPage() {
  const ctx = useDisplayContext();
  return (
    <Page title={ctx.t('screens.addProfile')}>
      <ClientForm stored={null} storedFiles={[]} editedId={null} />
    </Page>
  );
}

export function ClientEditPage() {
  const ctx = useDisplayContext();
  const { profId = '' } = useParams();
  const [params] = useSearchParams();
  const asked = params.get('step') as StepId | null;
  const initialStep = asked && STEPS.includes(asked) ? asked : undefined;
  const { client, records } = useClient(profId);
  const { files, loading } = useClientFiles(profId);
  const back = (
    <Button component={RouterLink} to={clientPath(profId)} startIcon={<ArrowBackIcon />}>
      {ctx.t('clients.page.backToClient')}
    </Button>
  );
  const name = client.status === 'ready' ? recordTitle(profile, client.doc, 'short') : '';
  return (
    <Page title={name ? ctx.t('clients.form.editTitle', { name }) : ctx.t('clients.form.editTitleShort')} actions={back}>
      <RecordGate
        record={client}
        notFoundId="clients.page.notFound"
        backTo={CLIENTS_PATH}
        backLabelId="clients.page.back"
        failedId="clients.page.loadFailed"
      >
        {(doc) =>
          !recordsSettled(records) || loading ? (
            <FullPageSpinner label={ctx.t('common.loading')} />
          ) : (
            <ClientForm
              key={profId}
              stored={{ profile: doc, records: Object.fromEntries(SUB_PARTS.map((p) => [p, storedRecord(records[p])])) }}
              storedFiles={files}
              editedId={profId}
              initialStep={initialStep}
            />
          )
        }
      </RecordGate>
    </Page>
  );
}
