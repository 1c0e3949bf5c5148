// Moving a referral on (ADR-0029): the next status (forward only), the day it happened, the
// feedback and the next follow-up date. The values, checks and save are the controller's
// (useStatusForm.ts); this is the form.
import { Alert, Box, Button, CircularProgress, MenuItem, TextField } from '@mui/material';
import { DateField } from './DateField';
import { useStatusForm, type StatusFormOptions } from './useStatusForm';

export function StatusForm(props: StatusFormOptions) {
  const { referral } = props;
  const { say, statusLabel, choices, values, set, errors, failure, saving, submit } = useStatusForm(props);

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
          value={values.status}
          onChange={(event) => set('status')(event.target.value)}
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
          required={Boolean(values.status)}
          label={say('referrals.follow.statusDate')}
          value={values.date}
          onChange={set('date')}
          keepInvalid
          error={errors.statusDate}
          sx={{ flex: '1 1 160px' }}
        />
        <DateField
          label={say('referrals.follow.nextFollowUp')}
          value={values.followUpDate}
          onChange={set('followUpDate')}
          keepInvalid
          error={errors.followUpDate}
          sx={{ flex: '1 1 160px' }}
        />
      </Box>
      <TextField
        multiline
        minRows={2}
        label={say('referrals.follow.feedback')}
        value={values.feedback}
        onChange={(event) => set('feedback')(event.target.value)}
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
