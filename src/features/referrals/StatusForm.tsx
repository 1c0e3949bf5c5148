// Moving a referral on (ADR-0029): the next status (forward only), the day it happened, the
// feedback and the next follow-up date. Sent with the `updatedAt` of the copy shown, so a
// colleague's change meanwhile is a conflict, not an overwrite.
import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, MenuItem, TextField } from '@mui/material';
import { useIntl } from 'react-intl';
import { nextStatuses } from '../../../schemas/index';
import { messageOf, serverFieldErrors } from '../../components/entity';
import { notify } from '../../lib/notify';
import { KIND_INFO, today, type ReferralKind } from './kinds';
import { updateReferral, type Row } from './referralApi';
import { useStatusLabel } from './ReferralStatusChip';
import { DateField } from './DateField';
import { dayPattern, isDay } from '../../lib/dayText';

interface StatusFormProps {
  kind: ReferralKind;
  referral: Row;
  /** The saved row, or the server's copy after a conflict. */
  onSaved: (row: Row) => void;
  onConflict: (server: Row) => void;
}

export function StatusForm({ kind, referral, onSaved, onConflict }: StatusFormProps) {
  const intl = useIntl();
  const say = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const statusLabel = useStatusLabel(kind);
  const info = KIND_INFO[kind];
  const choices = nextStatuses(info.flow, String(referral.status));
  const [status, setStatus] = useState('');
  const [date, setDate] = useState(today());
  const initialFeedback = typeof referral.feedback === 'string' ? referral.feedback : '';
  const initialFollowUp = typeof referral.followUpDate === 'string' ? referral.followUpDate : '';
  const [feedback, setFeedback] = useState(initialFeedback);
  const [followUpDate, setFollowUpDate] = useState(initialFollowUp);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const referred = String(referral.date);

  const check = (): Record<string, string> => {
    const found: Record<string, string> = {};
    const unchanged = !status && feedback.trim() === initialFeedback && followUpDate === initialFollowUp;
    if (unchanged) found.status = say('referrals.follow.nothingChanged');
    // The date fields keep a text that is no day (DayField keepInvalid): refused here, not sent as empty.
    if (date && !isDay(date)) found.statusDate = say('dayField.invalid', { pattern: dayPattern(intl.locale) });
    else if (status && !date) found.statusDate = say('referrals.follow.dateRequired');
    else if (status && date < referred) found.statusDate = say('referrals.follow.beforeReferral');
    if (followUpDate && !isDay(followUpDate)) found.followUpDate = say('dayField.invalid', { pattern: dayPattern(intl.locale) });
    else if (followUpDate && followUpDate < referred) found.followUpDate = say('referrals.follow.beforeReferral');
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check();
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      // Without a new status, the note and the follow-up date change; a new note is a history entry (server).
      const move = status ? { status, statusDate: date } : {};
      const body = { ...move, feedback: feedback.trim() || null, followUpDate: followUpDate || null, updatedAt: referral.updatedAt };
      const outcome = await updateReferral(kind, String(referral[info.key]), body);
      if ('conflict' in outcome) {
        onConflict(outcome.conflict);
        return;
      }
      notify.success(status ? say('referrals.follow.saved', { status: statusLabel(status) }) : say('referrals.follow.updated'));
      setStatus('');
      onSaved(outcome.saved);
    } catch (error) {
      const fields = serverFieldErrors(error);
      if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [f.field, f.message])));
      else setFailure(messageOf(error));
    } finally {
      setSaving(false);
    }
  };

  if (!choices.length) {
    return <Alert severity="info">{say('referrals.follow.final')}</Alert>;
  }
  return (
    <Box
      component="form"
      noValidate
      onSubmit={(event) => void submit(event)}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      data-testid="status-form"
    >
      {failure && <Alert severity="error">{failure}</Alert>}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <TextField
          select
          label={say('referrals.follow.newStatus')}
          value={status}
          onChange={(event) => setStatus(event.target.value)}
          error={Boolean(errors.status)}
          helperText={errors.status}
          sx={{ flex: '1 1 200px' }}
        >
          <MenuItem value="">
            <em>{say('referrals.follow.keepStatus', { status: statusLabel(String(referral.status)) })}</em>
          </MenuItem>
          {choices.map((choice) => (
            <MenuItem key={choice} value={choice}>
              {statusLabel(choice)}
            </MenuItem>
          ))}
        </TextField>
        <DateField
          required={Boolean(status)}
          label={say('referrals.follow.statusDate')}
          value={date}
          onChange={setDate}
          keepInvalid
          error={errors.statusDate}
          sx={{ flex: '1 1 160px' }}
        />
        <DateField
          label={say('referrals.follow.nextFollowUp')}
          value={followUpDate}
          onChange={setFollowUpDate}
          keepInvalid
          error={errors.followUpDate}
          sx={{ flex: '1 1 160px' }}
        />
      </Box>
      <TextField
        multiline
        minRows={2}
        label={say('referrals.follow.feedback')}
        value={feedback}
        onChange={(event) => setFeedback(event.target.value)}
        error={Boolean(errors.feedback)}
        helperText={errors.feedback}
        slotProps={{ htmlInput: { maxLength: 2000 } }}
      />
      <Box>
        <Button type="submit" variant="contained" disabled={saving} startIcon={saving ? <CircularProgress size={16} /> : undefined}>
          {say('referrals.follow.save')}
        </Button>
      </Box>
    </Box>
  );
}
