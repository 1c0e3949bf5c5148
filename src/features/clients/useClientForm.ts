// The client step form's controller: the draft, the step shown, which fields were left or which
// steps were tried, the save (online to the API in the spec's order, offline in the store) and
// what a failed save says. The view (ClientForm.tsx) only draws what this returns.
import { useEffect, useRef, useState } from 'react';
import { isAxiosError } from 'axios';
import { useNavigate } from 'react-router';
import { useSessionUser } from '../../components';
import { fieldLabel, messageOf, useDisplayContext, type DisplayContext } from '../../components/entity';
import { localDates, validateValues, type RawValues } from '../../components/entity/validation';
import { NO_IMAGE_CHANGES, type ImageChanges } from '../../components/images';
import type { BspData } from '../../../schemas/entities/profiles';
import { ConflictError, organisationAbbr, reportSaveFailure, useStoreSave } from '../../lib/data';
import { isQuotaError, notify } from '../../lib/ui';
import { changedSteps, firstInvalidStep, stepProblems, useClientDraft, type ClientDraft, type StoredClient } from './clientDraft';
import { clientPath, CLIENTS_PATH } from './paths';
import { useDuplicates } from './PossibleDuplicates';
import { ProfileNotSaved, saveClient, type PartFailure, type SavePart } from './saveClient';
import {
  IDENTITY_FIELDS,
  isSubPart,
  profile,
  STEPS,
  stepFields,
  SUB_RECORDS,
  withIdentityShared,
  type StepId,
  type SubPart,
} from './steps';

type Touched = Record<string, boolean>;
type Records = Partial<Record<SubPart, Record<string, unknown>>>;
/** A step whose fields the form draws from the schema. */
export type FieldStep = 'identity' | SubPart;

export interface ClientFormInput {
  /** The client edited, or null for a new one. */
  stored: StoredClient | null;
  editedId: string | null;
  initialStep?: StepId;
}

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
export function valuesOf(reg: ClientDraft): { profileValues: Record<string, unknown>; records: Records } {
  const profileValues = { ...validateValues(profile, reg.identity).values, BspData: reg.bsp };
  const records: Records = {};
  for (const part of reg.included)
    records[part] = withIdentityShared(part, validateValues(SUB_RECORDS[part], reg.parts[part]).values, profileValues);
  return { profileValues, records };
}

/** What saving one section sends: its record only (the profile is taken as it is stored), the
 * profile only for the identity and the basic services, the files only for the files. */
function sectionWork(section: StepId, records: Records, files: ImageChanges): { records: Records; files: ImageChanges; done: SavePart[] } {
  const own = isSubPart(section) && records[section] ? { [section]: records[section] } : {};
  const profileSaved = section !== 'identity' && section !== 'services';
  return {
    records: own,
    files: section === 'files' ? files : NO_IMAGE_CHANGES,
    done: profileSaved ? ['profile'] : [],
  };
}

/** Each record sent, with whether it is stored already and the version the edit started from. */
function recordInput(sent: Records, reg: ClientDraft, stored: StoredClient | null) {
  return Object.fromEntries(
    Object.entries(sent).map(([part, values]) => {
      const was = stored?.records[part as SubPart];
      const done = reg.done.includes(part as SubPart);
      return [part, { values, exists: Boolean(was) || done, basedOn: reg.basedOn[part as SubPart] }];
    }),
  );
}

/** The text shown over the form when the save failed as a whole. */
function saveErrorText(cause: unknown, ctx: DisplayContext): string {
  if (cause instanceof ConflictError) return ctx.t('clients.error.conflict');
  if (isQuotaError(cause)) return ctx.t('offline.quota.text');
  return messageOf(cause);
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

/** The identity of a new client once its first step was passed: what the duplicate search asks. */
function duplicateQueryOf(reg: ClientDraft, editing: boolean) {
  if (editing || reg.reached === 0) return null;
  const identity = validateValues(profile, reg.identity).values;
  return {
    firstName: identity.firstName as string,
    lastName: identity.lastName as string,
    birthDate: identity.birthDate as string,
    phone: identity.phone as string,
  };
}

export const stepTitle = (s: StepId | undefined) => (s ? document.getElementById(`client-step-${s}`) : null);

/**
 * On a phone the steps are one column: a new step opens below the finished ones, so it is brought
 * to the top of the screen, its title focused for a screen reader.
 */
export function useStepInView(stepIndex: number, vertical: boolean): void {
  const shownStep = useRef(stepIndex);
  useEffect(() => {
    if (shownStep.current === stepIndex) return;
    shownStep.current = stepIndex;
    if (!vertical) return;
    const title = stepTitle(STEPS[stepIndex]);
    title?.scrollIntoView({ block: 'start' });
    title?.focus({ preventScroll: true });
  }, [stepIndex, vertical]);
}

/**
 * The save of a checked draft: the whole draft, or one `section` alone; what it stored, what it
 * could not, and the file being sent meanwhile.
 */
function useClientSave({
  stored,
  draft,
  section,
}: {
  stored: StoredClient | null;
  draft: ReturnType<typeof useClientDraft>;
  section: StepId | null;
}) {
  const ctx = useDisplayContext();
  const navigate = useNavigate();
  const storeSave = useStoreSave();
  const { reg, setReg, files, setFiles, close } = draft;
  const [saving, setSaving] = useState(false);
  const [failures, setFailures] = useState<PartFailure[]>([]);
  const [profileError, setProfileError] = useState<string | null>(null);
  const [sending, setSending] = useState<{ slot: string; sent: number } | null>(null);
  const save = async () => {
    setSaving(true);
    setFailures([]);
    setProfileError(null);
    const { profileValues, records } = valuesOf(reg);
    const sent = section ? sectionWork(section, records, files) : { records, files, done: reg.done };
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
          records: recordInput(sent.records, reg, stored),
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
      setProfileError(saveErrorText(cause, ctx));
      // product.md §8 'Overall Save Profile Error': the save failed as a whole, nothing was stored. A
      // refused call was toasted by the interceptor in the server's words; this says what it means.
      if (isAxiosError(cause)) notify.error(ctx.t('errors.overallSaveProfileTitle'), ctx.t('clients.error.profile'));
      else reportSaveFailure('errors.overallSaveProfileTitle', cause, 'clients.error.conflict');
    } finally {
      setSaving(false);
      setSending(null);
    }
  };

  return { saving, failures, profileError, sending, save };
}

export function useClientForm({ stored, editedId, initialStep }: ClientFormInput) {
  const ctx = useDisplayContext();
  const navigate = useNavigate();
  const user = useSessionUser();
  const draft = useClientDraft(stored, editedId, initialStep);
  const { reg, setReg, files, setFiles, restored, close, discard } = draft;
  const [touched, setTouched] = useState<Touched>({});
  const [tried, setTried] = useState<Set<StepId>>(new Set());
  const [showRestored, setShowRestored] = useState(restored !== null);
  const editing = editedId !== null;
  const asked = editing && initialStep && initialStep !== 'review' ? initialStep : null;
  const wholeDraft = useWholeDraft(asked, restored !== null ? stored : null, reg, files.images.length);
  /** An edit opened from one section of the client's page: that step alone, saved alone
   * (docs/adr/0048-first-day-screens.md "A section edit saves its section"), unless a draft changed other steps:
   * then the whole draft opens at that step ("A section edit never hides a draft"). */
  const section = wholeDraft.on ? null : asked;
  const step = section ?? STEPS[reg.step] ?? 'identity';
  const duplicates = useDuplicates(duplicateQueryOf(reg, editing));

  const goTo = (index: number) => setReg((r) => ({ ...r, step: index, reached: Math.max(r.reached, index) }));
  const tryStep = (s: StepId) => setTried((t) => new Set(t).add(s));
  const focusFirstError = (s: StepId) => {
    const first = Object.keys(stepProblems(reg, s))[0];
    if (first) setTimeout(() => document.getElementById(`client-${s}-${first}`)?.focus(), 0);
  };

  /** Next, after checking the step; on an optional record, `include` says whether it is kept
   * (Next) or skipped (Skip, no check). */
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

  const saver = useClientSave({ stored, draft, section });
  const save = async () => {
    const invalid = section ? (Object.keys(stepProblems(reg, section)).length ? section : null) : firstInvalidStep(reg);
    if (invalid) {
      tryStep(invalid);
      goTo(STEPS.indexOf(invalid));
      return focusFirstError(invalid);
    }
    await saver.save();
  };

  return {
    reg,
    stored,
    files,
    setFiles,
    restored,
    editing,
    /** The one section an edit saves alone, or null for the whole stepper. */
    section,
    /** The step shown. */
    step,
    isLast: reg.step === STEPS.length - 1,
    noOrganisation: !editing && !organisationAbbr(user, ctx.lists),
    duplicates,
    saving: saver.saving,
    /** The file being sent online and the share of it sent (product.md §7 progress events). */
    sending: saver.sending,
    /** The parts a save could not store (the others were). */
    failures: saver.failures,
    /** Why the save failed as a whole, nothing stored. */
    profileError: saver.profileError,
    showRestored: showRestored && restored !== null,
    wholeDraft: wholeDraft.on,
    goTo,
    next,
    save,
    cancel: () => {
      close();
      void navigate(editing ? clientPath(reg.profId) : CLIENTS_PATH);
    },
    /** Start again from the stored client, and show it as it is. */
    discardDraft: () => {
      discard();
      wholeDraft.off();
      setShowRestored(false);
    },
    fieldsOf: (s: FieldStep): string[] =>
      s === 'identity' ? (editing ? ['prof_Reg_No', ...IDENTITY_FIELDS] : [...IDENTITY_FIELDS]) : stepFields(s),
    valuesOf: (s: FieldStep): RawValues => (s === 'identity' ? reg.identity : reg.parts[s]),
    /** A typed value; typing in an optional record includes it. */
    setValue: (s: FieldStep, name: string, value: unknown) =>
      setReg((r) =>
        s === 'identity'
          ? { ...r, identity: { ...r.identity, [name]: value } }
          : { ...r, parts: { ...r.parts, [s]: { ...r.parts[s], [name]: value } }, included: [...new Set([...r.included, s])] },
      ),
    setBsp: (bsp: BspData) => setReg((r) => ({ ...r, bsp })),
    leave: (s: FieldStep, name: string) => setTouched((t) => ({ ...t, [`${s}.${name}`]: true })),
    errorsOf: (s: FieldStep) => stepErrors(reg, s, touched, tried.has(s), ctx),
    /** A step reached, passed and without a problem (a skipped optional record is not done). */
    isDone: (index: number) => {
      const s = STEPS[index];
      const skipped = isSubPart(s) && !reg.included.includes(s);
      return index < reg.reached && index !== reg.step && !skipped && Object.keys(stepProblems(reg, s)).length === 0;
    },
  };
}

export type ClientFormController = ReturnType<typeof useClientForm>;
