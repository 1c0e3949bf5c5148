// The state of the client form across its steps, kept as a draft while the worker fills it in:
// the typed values in localStorage (draft:client:new, or draft:client:<prof_Id> for an edit),
// the picked files in the drafts' own IndexedDB, so that an unfinished registration survives a
// reload, a switch of mode or a closed tab, and is offered again on the way back.
import { useEffect, useRef, useState } from 'react';
import type { BspData } from '../../../schemas/entities/profiles';
import { uuidv7 } from '../../../schemas/ids';
import { clearDraft, DRAFT_DELAY_MS, draftKey, loadDraft, saveDraft, useFlushOnLeave } from '../../components/entity';
import { initialRaw } from '../../components/entity/formState';
import { validateValues, type Problem, type RawValues } from '../../components/entity/validation';
import type { ImageChanges } from '../../components/images';
import type { ImageInput } from '../../lib/data';
// Straight from its module, not the vault's index: Dexie stays out of the first screen (ADR-0035).
import { clearDraftFiles, keepDraftFiles, loadDraftFiles } from '../../lib/vault';
import type { SavePart } from './saveClient';
import {
  ASKED_IN_IDENTITY,
  IDENTITY_FIELDS,
  profile,
  recordFields,
  STEPS,
  SUB_PARTS,
  SUB_RECORDS,
  type StepId,
  type SubPart,
} from './steps';

export interface ClientDraft {
  profId: string;
  /** Index in STEPS of the step shown, and of the furthest one reached. */
  step: number;
  reached: number;
  identity: RawValues;
  parts: Record<SubPart, RawValues>;
  /** The optional records the worker filled in (a skipped one is not saved). */
  included: SubPart[];
  bsp: BspData;
  /** Kinds of file to delete (the picked files are kept apart, as blobs). */
  removeFiles: string[];
  /** Parts a save stored already (when another part failed): not sent again. */
  done: SavePart[];
  /** The client is stored (an edit, or a first save that stored the profile). */
  exists: boolean;
  /** The versions the edit started from (`updatedAt` of the profile and of each stored
   * record): a draft restored later still saves against them, so a colleague's change made
   * meanwhile is a conflict, never silently overwritten. */
  basedOn: Partial<Record<'profile' | SubPart, string>>;
}

export interface StoredClient {
  profile: Readonly<Record<string, unknown>>;
  records: Partial<Record<SubPart, Readonly<Record<string, unknown>> | null>>;
}

function only(raw: RawValues, names: readonly string[]): RawValues {
  return Object.fromEntries(Object.entries(raw).filter(([name]) => names.includes(name)));
}

function identityRaw(stored: StoredClient | null): RawValues {
  const names = stored ? [...IDENTITY_FIELDS, 'prof_Reg_No'] : IDENTITY_FIELDS;
  const raw = only(initialRaw(profile, names, stored?.profile ?? {}), names);
  // A field asked once (ASKED_IN_IDENTITY) that only the record holds is pre-filled from it, so
  // an edit never empties it.
  for (const [part, shared] of Object.entries(ASKED_IN_IDENTITY)) {
    const record = stored?.records[part as SubPart];
    for (const name of shared) {
      const own = stored?.profile[name];
      if ((own === null || own === undefined || own === '') && record?.[name] !== null && record?.[name] !== undefined)
        raw[name] = record[name];
    }
  }
  return raw;
}

function partRaw(part: SubPart, stored: Readonly<Record<string, unknown>> | null | undefined): RawValues {
  const entity = SUB_RECORDS[part];
  const names = recordFields(entity);
  return only(initialRaw(entity, names, stored ?? {}), names);
}

function bspOf(value: unknown): BspData {
  const v = value as Partial<BspData> | null | undefined;
  return { appr: Array.isArray(v?.appr) ? v.appr : [], orgHelp: Array.isArray(v?.orgHelp) ? v.orgHelp : [] };
}

/** A new draft (an empty form), or an edit of `stored` opened at `step`. */
export function freshClientDraft(stored: StoredClient | null, profId = uuidv7(), step: StepId = 'identity'): ClientDraft {
  const at = Math.max(0, STEPS.indexOf(step));
  return {
    profId,
    step: at,
    reached: stored ? STEPS.length - 1 : at,
    identity: identityRaw(stored),
    parts: Object.fromEntries(SUB_PARTS.map((part) => [part, partRaw(part, stored?.records[part])])) as Record<SubPart, RawValues>,
    included: SUB_PARTS.filter((part) => stored?.records[part]),
    bsp: bspOf(stored?.profile.BspData),
    removeFiles: [],
    done: [],
    exists: stored !== null,
    basedOn: versionsOf(stored),
  };
}

/**
 * The steps where a draft differs from `stored` as it is now (the files step when files
 * are picked or removed). A section edit opened over a draft that changed other steps opens the
 * whole draft instead, since a section's save clears the draft (docs/adr/0048-first-day-screens.md "A section
 * edit never hides a draft").
 */
export function changedSteps(reg: ClientDraft, stored: StoredClient, pickedFiles = 0): StepId[] {
  const fresh = freshClientDraft(stored, reg.profId);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const out: StepId[] = [];
  if (!same(reg.identity, fresh.identity)) out.push('identity');
  if (!same(reg.bsp, fresh.bsp)) out.push('services');
  for (const part of SUB_PARTS) {
    const included = reg.included.includes(part);
    if (included !== fresh.included.includes(part) || (included && !same(reg.parts[part], fresh.parts[part]))) out.push(part);
  }
  if (pickedFiles > 0 || reg.removeFiles.length > 0) out.push('files');
  return out;
}

function versionsOf(stored: StoredClient | null): ClientDraft['basedOn'] {
  if (!stored) return {};
  const out: ClientDraft['basedOn'] = {};
  const version = (row: Readonly<Record<string, unknown>> | null | undefined) =>
    typeof row?.updatedAt === 'string' ? row.updatedAt : undefined;
  const own = version(stored.profile);
  if (own) out.profile = own;
  for (const part of SUB_PARTS) {
    const v = version(stored.records[part]);
    if (v) out[part] = v;
  }
  return out;
}

function isClientDraft(value: unknown): value is ClientDraft {
  const v = value as Partial<ClientDraft> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.profId === 'string' &&
    typeof v.identity === 'object' &&
    typeof v.parts === 'object' &&
    Array.isArray(v.included) &&
    typeof v.basedOn === 'object'
  );
}

export function clientDraftKey(profId: string | null): string {
  return draftKey('client', profId);
}

/** Problems of one step, by field name (the server's rules, as EntityForm checks them). */
export function stepProblems(reg: ClientDraft, step: StepId): Record<string, Problem> {
  if (step === 'identity') return validateValues(profile, reg.identity).problems;
  if ((SUB_PARTS as readonly string[]).includes(step)) {
    const part = step as SubPart;
    return reg.included.includes(part) ? validateValues(SUB_RECORDS[part], reg.parts[part]).problems : {};
  }
  return {};
}

/** The first step with a problem, if any. */
export function firstInvalidStep(reg: ClientDraft): StepId | null {
  return STEPS.find((step) => Object.keys(stepProblems(reg, step)).length > 0) ?? null;
}

interface Restored {
  savedAt: number;
}

/**
 * The form's values and files, restored from the draft when there is one (for an edit, only
 * a draft of the same client), written back while it changes. `stored` is the client being
 * edited (null for a new one); `initialStep` where an edit opens.
 */
export function useClientDraft(stored: StoredClient | null, editedId: string | null, initialStep?: StepId) {
  const key = clientDraftKey(editedId);
  const [restored] = useState<Restored | null>(() => {
    const draft = loadDraft(key);
    return draft && isClientDraft(draft.values) ? { savedAt: draft.savedAt } : null;
  });
  const [reg, setReg] = useState<ClientDraft>(() => {
    const draft = loadDraft(key);
    if (draft && isClientDraft(draft.values)) {
      const values = draft.values;
      return initialStep ? { ...values, step: STEPS.indexOf(initialStep) } : values;
    }
    return freshClientDraft(stored, editedId ?? undefined, initialStep);
  });
  const [picked, setPicked] = useState<ImageInput[]>([]);
  const [filesLoaded, setFilesLoaded] = useState(false);
  const closed = useRef(false);
  const baseline = useRef(JSON.stringify(freshClientDraft(stored, reg.profId, STEPS[reg.step])));

  // Files picked before a reload come back from the drafts' database.
  useEffect(() => {
    let current = true;
    void loadDraftFiles(key).then((images) => {
      if (!current) return;
      if (images.length) setPicked(images);
      setFilesLoaded(true);
    });
    return () => {
      current = false;
    };
  }, [key]);

  // The typed values: written a moment after the last change (each write seals them), and at
  // once when the page goes or the form closes (another screen of the app), as EntityForm's
  // drafts are (useDraft): the last keystrokes are never lost.
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => {
    const write = () => {
      pending.current = null;
      if (closed.current) return;
      const untouched = JSON.stringify(reg) === baseline.current && picked.length === 0;
      if (untouched) clearDraft(key);
      else saveDraft(key, { values: reg as unknown as RawValues, savedAt: Date.now() });
    };
    pending.current = write;
    const timer = setTimeout(write, DRAFT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [reg, picked.length, key]);
  useFlushOnLeave(pending);

  const files: ImageChanges = { images: picked, removeImages: reg.removeFiles };
  const setFiles = (next: ImageChanges) => {
    setPicked(next.images);
    setReg((current) => ({ ...current, removeFiles: next.removeImages }));
    if (!closed.current) void keepDraftFiles(key, next.images);
  };

  /** Saved or abandoned: the draft and its files are forgotten. */
  const close = () => {
    closed.current = true;
    clearDraft(key);
    void clearDraftFiles(key);
  };

  /** Start again from the stored client (or an empty form). */
  const discard = () => {
    clearDraft(key);
    void clearDraftFiles(key);
    setPicked([]);
    setReg(freshClientDraft(stored, editedId ?? undefined, initialStep));
  };

  return { reg, setReg, files, setFiles, filesLoaded, restored, close, discard };
}
