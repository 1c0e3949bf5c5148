// Every field of a job with its label, as people read it (lookup labels, short dates in the
// user's language, phone and email as links), in a description list that reflows on a phone.
import type { ReactNode } from 'react';
import { Box, Link, Typography } from '@mui/material';
import type { EntityShape } from '../../../schemas/define';
import { job } from '../../../schemas/index';
import { displayValue, fieldLabel, useDisplayContext, type DisplayContext } from '../../components/entity';
import { formatDate } from '../../lib/format';
import type { JobDoc } from './useJobData';

/** Labels and values in the user's language, as the grids show them. */
/** MapLibre's credits are links inside a line of text: underlined, they stand out without
 * relying on colour (WCAG 1.4.1, axe link-in-text-block). */

const SHORT_FIELDS = ['employer', 'sector', 'territory', 'contract', 'positions', 'deadline', 'address', 'contact', 'phone', 'email', 'location'] as const;
const LONG_FIELDS = ['description', 'requirements'] as const;

function valueOf(entity: EntityShape, name: string, value: unknown, ctx: DisplayContext): ReactNode {
  const text = displayValue(entity, name, value, ctx);
  if (!text) return <Box component="span" sx={{ color: 'text.secondary' }}>—</Box>;
  if (name === 'phone') return <Link href={`tel:${text.replace(/\s+/g, '')}`}>{text}</Link>;
  if (name === 'email') return <Link href={`mailto:${text}`}>{text}</Link>;
  return text;
}

interface Item {
  name: string;
  label: string;
  value: ReactNode;
  wide?: boolean;
}

export function DetailList({ items, testId }: { items: readonly Item[]; testId?: string }) {
  return (
    <Box
      component="dl"
      data-testid={testId}
      sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }, columnGap: 3, rowGap: 1.5 }}
    >
      {items.map((item) => (
        <Box key={item.name} sx={{ gridColumn: item.wide ? '1 / -1' : undefined, minWidth: 0 }} data-field={item.name}>
          <Typography component="dt" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {item.label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: item.wide ? 'pre-wrap' : undefined }}>
            {item.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
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
