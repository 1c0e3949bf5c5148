// A record's History (ADR-0036): who did what and when, newest first, with the changed
// fields by their labels and, when the server may show them, their values before and after.
// At the bottom of the client, provider, service, job, referral and user pages, folded: the
// first page is asked when it is opened. Online only (the log lives on the server); live: a
// change of the record's tables or of the log asks the pages shown again.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { isAxiosError } from 'axios';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Button,
  CircularProgress,
  List,
  ListItem,
  Typography,
} from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import HistoryIcon from '@mui/icons-material/History';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import { useConnected } from '../../components/useConnected';
import { countText, useDisplayContext, type DisplayContext } from '../../components/entity';
import { formatDateTime, useServerChanges } from '../../lib/ui';
import { fetchHistory } from './auditApi';
import { storyOf, type StoryItem } from './story';
import { actionLabel, entityLabel, fieldName, historyTables, noteText, roleLabel, valueText } from './describe';
import { getEntity } from '../../../schemas/index';
import type { AuditEntry } from './types';

export interface HistorySectionProps {
  /** Entity name of schemas/ ('profile', 'serviceProvider', 'user', …). */
  entity: string;
  recordId: string;
  /** More change-stream tables whose changes show in this history (the entity's own table and
   * those of the records kept under it are watched already). */
  tables?: readonly string[];
  /** Open at first (default folded). */
  defaultExpanded?: boolean;
}

type Status = 'idle' | 'loading' | 'ready' | 'missing' | 'failed';

interface HistoryState {
  status: Status;
  rows: AuditEntry[];
  total: number;
  /** More entries than `total` (the count stops at its bound). */
  totalIsLowerBound?: boolean;
  /** Pages loaded (1 after the first answer). */
  pages: number;
  loadingMore: boolean;
}

const INITIAL: HistoryState = { status: 'idle', rows: [], total: 0, pages: 0, loadingMore: false };

function isNotFound(error: unknown): boolean {
  return isAxiosError(error) && error.response?.status === 404;
}

/** Entries newest first, each once (a page asked again after new entries repeats some). */
function merge(rows: readonly AuditEntry[]): AuditEntry[] {
  const seen = new Set<string>();
  const unique = rows.filter((row) => !seen.has(row.id) && seen.add(row.id));
  return unique.sort((a, b) => (a.at === b.at ? b.id.localeCompare(a.id) : b.at.localeCompare(a.at)));
}

/** The record's entries: the first page on `start()`, the next ones on `more()`, every page
 * shown again on `refresh()`. Answers to an older request are dropped. */
export function useHistory(entity: string, recordId: string) {
  const [state, setState] = useState<HistoryState>(INITIAL);
  const request = useRef(0);
  const pages = useRef(0);
  const load = useCallback(
    async (count: number) => {
      const ask = ++request.current;
      try {
        const answers = await Promise.all(Array.from({ length: count }, (_, n) => fetchHistory(entity, recordId, n + 1)));
        if (ask !== request.current) return;
        const total = answers[0]?.total ?? 0;
        const totalIsLowerBound = answers[0]?.totalIsLowerBound;
        pages.current = count;
        setState({
          status: 'ready',
          rows: merge(answers.flatMap((a) => a.rows)),
          total,
          totalIsLowerBound,
          pages: count,
          loadingMore: false,
        });
      } catch (error) {
        if (ask !== request.current) return;
        setState((was) => ({ ...was, status: isNotFound(error) ? 'missing' : 'failed', loadingMore: false }));
      }
    },
    [entity, recordId],
  );
  const start = useCallback(() => {
    setState((was) => ({ ...was, status: 'loading' }));
    void load(Math.max(1, pages.current));
  }, [load]);
  const refresh = useCallback(() => {
    if (pages.current > 0) void load(pages.current);
  }, [load]);
  const more = useCallback(async () => {
    const ask = ++request.current;
    const next = pages.current + 1;
    setState((was) => ({ ...was, loadingMore: true }));
    try {
      const answer = await fetchHistory(entity, recordId, next);
      if (ask !== request.current) return;
      pages.current = next;
      setState((was) => ({
        status: 'ready',
        rows: merge([...was.rows, ...answer.rows]),
        total: answer.total,
        totalIsLowerBound: answer.totalIsLowerBound,
        pages: next,
        loadingMore: false,
      }));
    } catch {
      if (ask !== request.current) return;
      setState((was) => ({ ...was, status: 'failed', loadingMore: false }));
    }
  }, [entity, recordId]);
  return { state, start, refresh, more };
}

/** One change: the field's label, its value before and after. */
function Change({ entry, field, ctx, label }: { entry: AuditEntry; field: string; ctx: DisplayContext; label: string }) {
  const change = entry.changes?.[field];
  if (!change) return null;
  return (
    <Box component="li" data-testid="history-change" data-field={field} sx={{ overflowWrap: 'anywhere' }}>
      <Box component="span" sx={{ fontWeight: 'fontWeightMedium' }}>
        {label}
      </Box>
      {': '}
      <span data-testid="history-before">{valueText(entry.entity, field, change.before, ctx)}</span>
      <span aria-hidden> → </span>
      <VisuallyHidden>{` ${ctx.t('audit.history.changedTo')} `}</VisuallyHidden>
      <span data-testid="history-after">{valueText(entry.entity, field, change.after, ctx)}</span>
    </Box>
  );
}

/** Who did it: the user's name and role, or "the system" for entries no user made. */
export function whoText(entry: Pick<AuditEntry, 'userName' | 'role'>, ctx: DisplayContext): string {
  const name = entry.userName || ctx.t('audit.history.system');
  const role = roleLabel(entry.role, ctx.t);
  return role ? `${name} (${role})` : name;
}

export function HistoryEntry({ item, ctx, ownEntity }: { item: StoryItem; ctx: DisplayContext; ownEntity: string }) {
  const { entry } = item;
  const entity = entry.entity ? getEntity(entry.entity) : undefined;
  const label = (name: string) => fieldName(entity, name, ctx.t);
  const withValues = item.fields.filter((name) => entry.changes?.[name] && name !== 'feedback');
  const namesOnly = item.fields.filter((name) => !entry.changes?.[name]);
  // A sub-record (a client's skills, a referral) says which one; a photo's action says it already.
  const part = entry.entity && entry.entity !== ownEntity && !entry.action.startsWith('image.') ? entityLabel(entry.entity, ctx.t) : '';
  const action = item.followUp ? ctx.t('audit.history.followUp') : actionLabel(entry.action, ctx.t);
  return (
    <ListItem
      disableGutters
      divider
      alignItems="flex-start"
      data-testid="history-entry"
      data-action={entry.action}
      data-entity={entry.entity ?? ''}
      sx={{ display: 'block', py: 1 }}
    >
      <Typography variant="subtitle2" component="p" data-testid="history-action">
        {action}
        {part ? ` · ${part}` : ''}
        {item.count > 1 ? ` · ${ctx.t('audit.history.times', { count: item.count })}` : ''}
      </Typography>
      <Typography variant="body2" color="text.secondary" data-testid="history-who">
        <time dateTime={entry.at}>{formatDateTime(entry.at, ctx.lang)}</time>
        {` · ${whoText(entry, ctx)}`}
        {entry.deviceAt ? ` · ${ctx.t('audit.history.deviceAt', { date: formatDateTime(entry.deviceAt, ctx.lang) })}` : ''}
      </Typography>
      {item.followUp && (
        <Typography variant="body2" data-testid="history-follow-up" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {item.followUp}
        </Typography>
      )}
      {entry.note && (
        <Typography variant="body2" data-testid="history-note" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {noteText(entry, ctx.t)}
        </Typography>
      )}
      {withValues.length > 0 && (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.5, typography: 'body2' }}>
          {withValues.map((name) => (
            <Change key={name} entry={entry} field={name} ctx={ctx} label={label(name)} />
          ))}
        </Box>
      )}
      {namesOnly.length > 0 && (
        <Typography variant="body2" data-testid="history-fields" sx={{ overflowWrap: 'anywhere' }}>
          {ctx.t(entry.action === 'create' ? 'audit.history.filled' : 'audit.history.fields', { fields: namesOnly.map(label).join(', ') })}
        </Typography>
      )}
    </ListItem>
  );
}

function HistoryBody({
  history,
  ctx,
  entity,
  connected,
}: {
  history: ReturnType<typeof useHistory>;
  ctx: DisplayContext;
  entity: string;
  connected: boolean;
}) {
  const { state, start, more } = history;
  if (!connected) {
    return (
      <Alert severity="info" data-testid="history-offline">
        {ctx.t('audit.history.offline')}
      </Alert>
    );
  }
  if (state.status === 'idle' || state.status === 'loading') {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }} data-testid="history-loading">
        <CircularProgress size={20} aria-label={ctx.t('common.loading')} />
      </Box>
    );
  }
  if (state.status === 'failed' && state.rows.length === 0) {
    return (
      <Alert
        severity="warning"
        data-testid="history-failed"
        action={
          <Button color="inherit" size="small" onClick={start}>
            {ctx.t('entityGrid.retry')}
          </Button>
        }
      >
        {ctx.t('audit.history.failed')}
      </Alert>
    );
  }
  if (state.status === 'missing' || state.rows.length === 0) {
    return (
      <Typography color="text.secondary" data-testid="history-empty">
        {ctx.t('audit.history.none')}
      </Typography>
    );
  }
  const left = state.total - state.rows.length;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <List dense disablePadding data-testid="history-list">
        {storyOf(state.rows).map((item) => (
          <HistoryEntry key={item.entry.id} item={item} ctx={ctx} ownEntity={entity} />
        ))}
      </List>
      {state.status === 'failed' && (
        <Alert severity="warning" data-testid="history-failed">
          {ctx.t('audit.history.failed')}
        </Alert>
      )}
      {left > 0 && (
        <Box>
          <Button
            onClick={() => void more()}
            disabled={state.loadingMore}
            startIcon={state.loadingMore ? <CircularProgress size={16} aria-hidden /> : undefined}
            data-testid="history-more"
          >
            {ctx.t('audit.history.more', { shown: state.rows.length, total: countText(ctx.t, state.total, state.totalIsLowerBound) })}
          </Button>
        </Box>
      )}
    </Box>
  );
}

/** Another record (a link from one client to another) starts again, folded. */
export function HistorySection(props: HistorySectionProps) {
  return <RecordHistory key={`${props.entity}/${props.recordId}`} {...props} />;
}

function RecordHistory({ entity, recordId, tables = [], defaultExpanded = false }: HistorySectionProps) {
  const ctx = useDisplayContext();
  const connected = useConnected();
  const [expanded, setExpanded] = useState(defaultExpanded);
  const history = useHistory(entity, recordId);
  const { state, start, refresh } = history;
  const id = useId();
  const open = expanded && connected;
  // Asked when opened (and again when the connection comes back while open).
  useEffect(() => {
    if (open && (state.status === 'idle' || (state.status === 'failed' && state.rows.length === 0))) start();
    // Only opening (or reconnecting) starts a load; a failure waits for Retry.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, start]);
  const watched = [...new Set([...historyTables(entity), ...tables])];
  useServerChanges(watched, refresh, open && state.pages > 0);
  return (
    <Accordion
      expanded={expanded}
      onChange={(_event, next) => setExpanded(next)}
      variant="outlined"
      disableGutters
      data-testid="history-section"
      slotProps={{ heading: { component: 'h2' }, transition: { unmountOnExit: true } }}
      sx={{ borderRadius: 1, '&::before': { display: 'none' } }}
    >
      <AccordionSummary expandIcon={<ExpandMoreIcon />} id={`${id}-summary`} aria-controls={`${id}-content`} data-testid="history-toggle">
        <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
          <HistoryIcon fontSize="small" aria-hidden />
          <Typography component="span" variant="h6">
            {ctx.t('audit.history.title')}
          </Typography>
          {state.pages > 0 && connected && (
            <Typography component="span" variant="body2" color="text.secondary" data-testid="history-count">
              {`(${countText(ctx.t, state.total, state.totalIsLowerBound)})`}
            </Typography>
          )}
        </Box>
      </AccordionSummary>
      <AccordionDetails>
        <HistoryBody history={history} ctx={ctx} entity={entity} connected={connected} />
      </AccordionDetails>
    </Accordion>
  );
}
