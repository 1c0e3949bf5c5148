// A referral's status as a coloured chip: waiting (sent), under way, succeeded, or refused.
import { Chip } from '@mui/material';
import { useIntl } from 'react-intl';
import { enumLabel, type EnumField } from '../../../schemas/define';
import { isFinalStatus } from '../../../schemas/index';
import { KIND_INFO, type ReferralKind } from './kinds';

type ChipColor = 'default' | 'info' | 'primary' | 'success' | 'error';

function colorOf(kind: ReferralKind, status: string): ChipColor {
  const { flow } = KIND_INFO[kind];
  if (status === flow.refusal) return 'error';
  if (isFinalStatus(flow, status)) return 'success';
  return status === flow.path[0] ? 'info' : 'primary';
}

/** The translated name of a status. */
export function useStatusLabel(kind: ReferralKind): (status: string) => string {
  const intl = useIntl();
  const entity = KIND_INFO[kind].entity;
  const field = entity.fields.status as EnumField;
  return (status) => intl.formatMessage({ id: enumLabel(entity.name, 'status', field, status) });
}

export function ReferralStatusChip({ kind, status }: { kind: ReferralKind; status: string }) {
  const label = useStatusLabel(kind);
  return <Chip size="small" color={colorOf(kind, status)} label={label(status)} data-testid="referral-status" data-status={status} />;
}
