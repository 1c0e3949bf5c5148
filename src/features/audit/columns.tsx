// The audit screen's columns, for the data grid (wide screens) and the phone list: when, who,
// role, organisation, action, record (its kind and key, linked to its page) and what changed.
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Link } from '@mui/material';
import { type DisplayContext, type GridRow, lookupLabel } from '../../components/entity';
import type { ListColumn } from '../../components/entity/columns';
import { formatDateTime } from '../../lib/ui';
import { actionLabel, entityLabel, fieldNames, noteText, roleLabel } from './describe';
import { recordPath, shortId } from './recordLink';
import type { AuditEntry } from './types';

const entryOf = (row: GridRow) => row as AuditEntry;

export function organisationText(entry: AuditEntry, ctx: DisplayContext): string {
  const id = entry.location ?? entry.userLocation;
  return id ? lookupLabel(ctx.lists, 'organisation', id, ctx.lang) : '';
}

export function recordText(entry: AuditEntry, ctx: DisplayContext): string {
  return [entityLabel(entry.entity, ctx.t), shortId(entry.recordId)].filter(Boolean).join(' ');
}

export function changedText(entry: AuditEntry, ctx: DisplayContext): string {
  return fieldNames(entry, ctx.t).join(', ');
}

function RecordCell({ entry, ctx, role }: { entry: AuditEntry; ctx: DisplayContext; role: number | undefined }) {
  const text = recordText(entry, ctx);
  const path = recordPath(entry, role);
  if (!text) return null;
  if (!path) return <span title={entry.recordId ?? undefined}>{text}</span>;
  return (
    <Link component={RouterLink} to={path} title={entry.recordId ?? undefined} data-testid="audit-record-link">
      {text}
    </Link>
  );
}

function ChangedCell({ entry, ctx }: { entry: AuditEntry; ctx: DisplayContext }) {
  const fields = changedText(entry, ctx);
  return (
    <Box component="span" sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      {fields && <span data-testid="audit-fields">{fields}</span>}
      {entry.note && (
        <Box component="span" sx={{ color: 'text.secondary' }} data-testid="audit-note">
          {noteText(entry, ctx.t)}
        </Box>
      )}
    </Box>
  );
}

/** The phone list's one cell: the whole entry in a few short lines. */
function EntryCell({ entry, ctx, role }: { entry: AuditEntry; ctx: DisplayContext; role: number | undefined }) {
  const who = [entry.userName ?? ctx.t('audit.history.system'), roleLabel(entry.role, ctx.t), organisationText(entry, ctx)]
    .filter(Boolean)
    .join(' · ');
  return (
    <Box component="span" sx={{ display: 'flex', flexDirection: 'column', gap: 0.25, minWidth: 0 }}>
      <Box component="span" sx={{ fontWeight: 'fontWeightMedium' }}>
        {actionLabel(entry.action, ctx.t)}
      </Box>
      <RecordCell entry={entry} ctx={ctx} role={role} />
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {who}
      </Box>
      <ChangedCell entry={entry} ctx={ctx} />
    </Box>
  );
}

/** Every column; a phone shows `when` and `entry`, a wide screen all the others. */
export const PHONE_COLUMNS = ['at', 'entry'] as const;
export const WIDE_COLUMNS = ['at', 'userName', 'role', 'organisation', 'action', 'record', 'changed'] as const;

function column(
  field: string,
  headerName: string,
  text: (entry: AuditEntry) => string,
  draw: (entry: AuditEntry) => ReactNode,
  minWidth = 120,
  flex = 1,
): ListColumn {
  return {
    field,
    headerName,
    sortable: false,
    flex,
    minWidth,
    valueGetter: (_value: never, row: GridRow) => text(entryOf(row)),
    renderCell: (params) => draw(entryOf(params.row)),
    draw: (row) => draw(entryOf(row)),
  };
}

export function auditColumns(ctx: DisplayContext, role: number | undefined): ListColumn[] {
  const when = (e: AuditEntry) => formatDateTime(e.at, ctx.lang);
  const user = (e: AuditEntry) => e.userName ?? ctx.t('audit.history.system');
  const roleText = (e: AuditEntry) => roleLabel(e.role, ctx.t);
  const organisation = (e: AuditEntry) => organisationText(e, ctx);
  const action = (e: AuditEntry) => actionLabel(e.action, ctx.t);
  const changed = (e: AuditEntry) => [changedText(e, ctx), noteText(e, ctx.t)].filter(Boolean).join(' — ');
  return [
    column('at', ctx.t('audit.column.at'), when, (e) => <time dateTime={e.at}>{when(e)}</time>, 130),
    column('userName', ctx.t('audit.column.user'), user, user),
    column('role', ctx.t('audit.column.role'), roleText, roleText),
    column('organisation', ctx.t('audit.column.organisation'), organisation, organisation),
    column('action', ctx.t('audit.column.action'), action, action),
    column(
      'record',
      ctx.t('audit.column.record'),
      (e) => recordText(e, ctx),
      (e) => <RecordCell entry={e} ctx={ctx} role={role} />,
    ),
    column('changed', ctx.t('audit.column.changed'), changed, (e) => <ChangedCell entry={e} ctx={ctx} />, 160, 2),
    column(
      'entry',
      ctx.t('audit.column.entry'),
      (e) => [action(e), recordText(e, ctx), user(e), changed(e)].filter(Boolean).join(' · '),
      (e) => <EntryCell entry={e} ctx={ctx} role={role} />,
      160,
      2,
    ),
  ];
}
