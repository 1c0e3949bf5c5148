// The follow-up form's controller (ADR-0029): its values, their checks, and the save with the
// `updatedAt` of the copy shown, so that a colleague's change meanwhile is a conflict.
import { useState, type FormEvent } from 'react';
import { useIntl } from 'react-intl';
import { nextStatuses } from '../../../schemas/index';
import { messageOf, serverFieldErrors } from '../../components/entity';
import { dayPattern, isDay, notify } from '../../lib/ui';
import { useSay, type Say } from '../../lib/session';
import { KIND_INFO, today, type ReferralKind } from './kinds';
import { updateReferral, type Row } from './referralApi';
import { useStatusLabel } from './ReferralStatusChip';

export interface StatusFormOptions {
  kind: ReferralKind;
  referral: Row;
  /** The saved row, or the server's copy after a conflict. */
  onSaved: (row: Row) => void;
  onConflict: (server: Row) => void;
}

interface FollowUpValues {
  status: string;
  date: string;
  feedback: string;
  followUpDate: string;
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** What the form refuses before sending, by field: nothing changed, a text that is no day (the
 * date fields keep it, DayField keepInvalid), a status without its day, a day before the referral. */
function problems(values: FollowUpValues, referral: Row, say: Say, locale: string): Record<string, string> {
  const { status, date, feedback, followUpDate } = values;
  const referred = String(referral.date);
  const found: Record<string, string> = {};
  const unchanged = !status && feedback.trim() === textOf(referral.feedback) && followUpDate === textOf(referral.followUpDate);
  if (unchanged) found.status = say('referrals.follow.nothingChanged');
  if (date && !isDay(date)) found.statusDate = say('dayField.invalid', { pattern: dayPattern(locale) });
  else if (status && !date) found.statusDate = say('referrals.follow.dateRequired');
  else if (status && date < referred) found.statusDate = say('referrals.follow.beforeReferral');
  if (followUpDate && !isDay(followUpDate)) found.followUpDate = say('dayField.invalid', { pattern: dayPattern(locale) });
  else if (followUpDate && followUpDate < referred) found.followUpDate = say('referrals.follow.beforeReferral');
  return found;
}

export function useStatusForm({ kind, referral, onSaved, onConflict }: StatusFormOptions) {
  const say = useSay();
  const { locale } = useIntl();
  const statusLabel = useStatusLabel(kind);
  const info = KIND_INFO[kind];
  const [values, setValues] = useState<FollowUpValues>(() => ({
    status: '',
    date: today(),
    feedback: textOf(referral.feedback),
    followUpDate: textOf(referral.followUpDate),
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const set = (name: keyof FollowUpValues) => (value: string) => setValues((current) => ({ ...current, [name]: value }));

  const save = async () => {
    const { status, date, feedback, followUpDate } = values;
    // Without a new status, the note and the follow-up date change; a new note is a history entry (server).
    const move = status ? { status, statusDate: date } : {};
    const body = { ...move, feedback: feedback.trim() || null, followUpDate: followUpDate || null, updatedAt: referral.updatedAt };
    const outcome = await updateReferral(kind, String(referral[info.key]), body);
    if ('conflict' in outcome) {
      onConflict(outcome.conflict);
      return;
    }
    notify.success(status ? say('referrals.follow.saved', { status: statusLabel(status) }) : say('referrals.follow.updated'));
    setValues((current) => ({ ...current, status: '' }));
    onSaved(outcome.saved);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = problems(values, referral, say, locale);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      await save();
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.message])));
      else setFailure(messageOf(error));
    } finally {
      setSaving(false);
    }
  };

  return {
    say,
    statusLabel,
    choices: nextStatuses(info.flow, String(referral.status)),
    values,
    set,
    errors,
    failure,
    saving,
    submit,
  };
}
