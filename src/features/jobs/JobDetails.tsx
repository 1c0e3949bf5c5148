// Every field of a job with its label, as people read it (lookup labels, short dates in the
// user's language, phone and email as links), in a description list that reflows on a phone.
import type { ReactNode } from 'react';
import { Box, Link } from '@mui/material';
import { DetailList, type DetailItem as Item } from '../../components/DetailList';
import type { EntityShape } from '../../../schemas/define';
import { job } from '../../../schemas/index';
import { displayValue, fieldLabel, useDisplayContext, type DisplayContext } from '../../components/entity';
import { formatDate } from '../../lib/ui';
import type { JobDoc } from './useJobData';

const SHORT_FIELDS = [
  'employer',
  'sector',
  'territory',
  'contract',
  'positions',
  'deadline',
  'address',
  'contact',
  'phone',
  'email',
  'location',
] as const;
const LONG_FIELDS = ['description', 'requirements'] as const;

function valueOf(entity: EntityShape, name: string, value: unknown, ctx: DisplayContext): ReactNode {
  const text = displayValue(entity, name, value, ctx);
  if (!text)
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        —
      </Box>
    );
  if (name === 'phone') return <Link href={`tel:${text.replace(/\s+/g, '')}`}>{text}</Link>;
  if (name === 'email') return <Link href={`mailto:${text}`}>{text}</Link>;
  return text;
}

export function JobDetails({ record }: { record: JobDoc }) {
  const ctx = useDisplayContext();
  const row = record as Record<string, unknown>;
  const items: Item[] = [
    ...SHORT_FIELDS.map((name) => ({ name, label: fieldLabel(job, name, ctx.t), value: valueOf(job, name, row[name], ctx) })),
    ...LONG_FIELDS.map((name) => ({ name, label: fieldLabel(job, name, ctx.t), value: valueOf(job, name, row[name], ctx), wide: true })),
  ];
  if (typeof row.createdAt === 'string') {
    items.push({ name: 'createdAt', label: fieldLabel(job, 'createdAt', ctx.t), value: formatDate(row.createdAt, ctx.lang) });
  }
  return <DetailList items={items} testId="job-details" />;
}
