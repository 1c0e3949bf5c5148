// A referral's status as a coloured chip: waiting (sent), under way, succeeded, or refused.
import { Chip } from '@mui/material';
import { enumLabel, type EnumField } from '../../../schemas/define';
import { isFinalStatus } from '../../../schemas/index';
import { KIND_INFO, type ReferralKind } from './kinds';
import { useSay } from '../../lib/session';

// Filled colours whose text keeps a 4.5:1 contrast in both themes (MUI's info and warning do not).
type ChipColor = 'default' | 'primary' | 'success' | 'error';

function colorOf(kind: ReferralKind, status: string): ChipColor {
  const { flow } = KIND_INFO[kind];
  if (status === flow.refusal) return 'error';
  if (isFinalStatus(flow, status)) return 'success';
  return status === flow.path[0] ? 'default' : 'primary';
}

/** The translated name of a status. */
export function useStatusLabel(kind: ReferralKind): (status: string) => string {
  const say = useSay();
  const entity = KIND_INFO[kind].entity;
  const field = entity.fields.status as EnumField;
  return (status) => say(enumLabel(entity.name, 'status', field, status));
}

export function ReferralStatusChip({ kind, status }: { kind: ReferralKind; status: string }) {
  const label = useStatusLabel(kind);
  const color = colorOf(kind, status);
  return (
    <Chip
      size="small"
      color={color}
      label={label(status)}
      data-testid="referral-status"
      data-status={status}
      // The dark theme's light red leaves white text at 3.7:1: its darker shade keeps 4.5:1.
      sx={(theme) => (color === 'error' && theme.palette.mode === 'dark' ? { bgcolor: theme.palette.error.dark, color: '#fff' } : {})}
    />
  );
}
