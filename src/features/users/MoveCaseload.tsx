// "Move this worker's clients" on a user's page (docs/product.md §6.5.1; docs/adr/0017-caseload.md
// "Role 7 moves a worker's caseload"): a worker who leaves or changes post hands their caseload
// to a colleague of the same organisation. Role 7 reads no client, so it names the worker, never
// the clients: how many they hold, the colleague, what that adds to the colleague's device (the
// assignment's preview), a confirmation, then the move, MAX_ASSIGN clients a call until none
// remain (each call one transaction on the server, docs/api.md "Caseload").
import { useEffect, useId, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useIntl } from 'react-intl';
import { notify } from '../../lib/ui';
import {
  caseloadFailure,
  fetchCaseload,
  fetchCaseloadWorkers,
  moveClients,
  previewMove,
  type CaseloadPreview,
  type CaseloadWorker,
  type Load,
} from './usersApi';
import { useSay } from '../../lib/session';

/** The most calls one move makes (each moves up to 500): a bound, never a loop without end. */
export const MAX_MOVE_CALLS = 40;

export interface MoveCaseloadProps {
  /** The worker whose clients move. */
  userId: string;
  name: string;
  /** Their organisation: the colleague is of the same one. */
  location: number;
  /** Changes after each save of the user, so the count is read again. */
  version: number;
  /** After a move that moved clients (the page's other figures are read again). */
  onMoved?: () => void;
}

export function MoveCaseload({ userId, name, location, version, onMoved }: MoveCaseloadProps) {
  const say = useSay();
  const [count, setCount] = useState<{ key: string; load: Load<number> } | null>(null);
  const [moves, setMoves] = useState(0);
  const [open, setOpen] = useState(false);
  const key = `${userId}:${version}:${moves}`;
  useEffect(() => {
    let current = true;
    fetchCaseload(userId).then(
      (value) => current && setCount({ key, load: { state: 'done', value: value.assignedClients } }),
      (error: unknown) => current && setCount({ key, load: { state: 'failed', message: caseloadFailure(say, error) } }),
    );
    return () => {
      current = false;
    };
  }, [userId, key, say]);
  const load: Load<number> = count?.key === key ? count.load : { state: 'loading' };
  // Nothing to move: the page says nothing of it.
  if (load.state === 'done' && load.value === 0) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="move-caseload">
      <Stack spacing={1}>
        <Typography component="h2" variant="subtitle1">
          {say('users.move.title')}
        </Typography>
        {load.state === 'loading' && <CircularProgress size={16} aria-label={say('common.loading')} />}
        {load.state === 'failed' && <Alert severity="error">{say('users.caseload.failed', { message: load.message })}</Alert>}
        {load.state === 'done' && (
          <>
            <Typography variant="body2" data-testid="move-caseload-count">
              {say('users.move.count', { count: load.value, name })}
            </Typography>
            <Box>
              <Button variant="outlined" onClick={() => setOpen(true)} data-testid="move-caseload-open">
                {say('users.move.open')}
              </Button>
            </Box>
          </>
        )}
      </Stack>
      {open && load.state === 'done' && (
        <MoveDialog
          from={userId}
          name={name}
          location={location}
          count={load.value}
          onClose={(moved) => {
            setOpen(false);
            if (!moved) return;
            setMoves((n) => n + 1);
            onMoved?.();
          }}
        />
      )}
    </Paper>
  );
}

interface MoveDialogProps {
  from: string;
  name: string;
  location: number;
  count: number;
  /** `moved`: something moved, so the count is read again. */
  onClose: (moved: boolean) => void;
}

/** The move's controller: the colleagues to choose from, the preview of what the move adds to
 * the one chosen, and the move itself, call after call until none remain or it fails. */
function useMove({ from, location, count, onClose }: Pick<MoveDialogProps, 'from' | 'location' | 'count' | 'onClose'>) {
  const t = useSay();
  const [workers, setWorkers] = useState<Load<CaseloadWorker[]>>({ state: 'loading' });
  const [to, setTo] = useState('');
  const [preview, setPreview] = useState<{ to: string; load: Load<CaseloadPreview> } | null>(null);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [movedSoFar, setMovedSoFar] = useState(0);

  useEffect(() => {
    let current = true;
    fetchCaseloadWorkers().then(
      (value) => current && setWorkers({ state: 'done', value: value.filter((w) => w.location === location && w.userId !== from) }),
      (error: unknown) => current && setWorkers({ state: 'failed', message: caseloadFailure(t, error) }),
    );
    return () => {
      current = false;
    };
  }, [from, location, t]);

  useEffect(() => {
    if (!to) return undefined;
    let current = true;
    previewMove(to, from).then(
      (value) => current && setPreview({ to, load: { state: 'done', value } }),
      (error: unknown) => current && setPreview({ to, load: { state: 'failed', message: caseloadFailure(t, error) } }),
    );
    return () => {
      current = false;
    };
  }, [to, from, t]);

  const choices = workers.state === 'done' ? workers.value : [];
  const worker = choices.find((w) => w.userId === to);
  const shown: Load<CaseloadPreview> | null = !to ? null : preview?.to === to ? preview.load : { state: 'loading' };

  const confirm = async () => {
    if (!worker) return;
    setSaving(true);
    setProblem(null);
    let moved = 0;
    let remaining = count;
    try {
      // Each call moves up to 500 in one transaction; the next one takes those that remain.
      for (let call = 0; call < MAX_MOVE_CALLS && remaining > 0; call++) {
        const answer = await moveClients(from, worker.userId);
        moved += answer.moved;
        remaining = answer.remaining;
        setMovedSoFar(moved);
        if (answer.moved === 0) break;
      }
    } catch (error) {
      setProblem(moved ? t('users.move.partial', { count: moved, message: caseloadFailure(t, error) }) : caseloadFailure(t, error));
      return;
    } finally {
      setSaving(false);
    }
    // Told only once the move is over: what follows cannot make a finished move look stopped.
    if (remaining > 0) {
      setProblem(t('users.move.remaining', { count: moved, name: worker.name }));
      return;
    }
    notify.success(t('users.move.doneTitle'), t('users.move.done', { count: moved, name: worker.name }));
    onClose(true);
  };

  return { t, workers, choices, to, setTo, worker, shown, saving, problem, movedSoFar, confirm };
}

function MoveDialog({ from, name, location, count, onClose }: MoveDialogProps) {
  const titleId = useId();
  const { t, workers, choices, to, setTo, worker, shown, saving, problem, movedSoFar, confirm } = useMove({
    from,
    location,
    count,
    onClose,
  });
  return (
    <Dialog
      open
      onClose={() => !saving && onClose(movedSoFar > 0)}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      data-testid="move-dialog"
    >
      <DialogTitle id={titleId}>{t('users.move.dialogTitle', { count, name })}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {workers.state === 'loading' && <CircularProgress size={18} aria-label={t('common.loading')} />}
        {workers.state === 'failed' && <Alert severity="error">{workers.message}</Alert>}
        {workers.state === 'done' && choices.length === 0 && <Alert severity="info">{t('users.move.noWorkers')}</Alert>}
        {choices.length > 0 && (
          <TextField
            select
            label={t('users.move.to')}
            value={to}
            onChange={(event) => setTo(event.target.value)}
            disabled={saving}
            sx={{ mt: 1 }}
            data-testid="move-worker"
          >
            {choices.map((w) => (
              <MenuItem key={w.userId} value={w.userId}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
        )}
        {worker && shown && <MovePreview worker={worker} shown={shown} />}
        {saving && (
          <Alert severity="info" icon={<CircularProgress size={18} />} aria-live="polite">
            {t('users.move.moving', { count: movedSoFar, total: count })}
          </Alert>
        )}
        {problem && (
          <Alert severity="error" data-testid="move-problem">
            {problem}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(movedSoFar > 0)} disabled={saving}>
          {t('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void confirm()} disabled={!worker || saving} data-testid="move-confirm">
          {t('users.move.confirm', { count, name: worker?.name ?? '' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** What the move adds to the chosen colleague's device, or why that is not known. */
function MovePreview({ worker, shown }: { worker: CaseloadWorker; shown: Load<CaseloadPreview> }) {
  const intl = useIntl();
  const t = useSay();
  const mb = (n: number) => intl.formatNumber(Math.abs(n), { maximumFractionDigits: Math.abs(n) < 10 ? 1 : 0 });
  return (
    <>
      {shown.state === 'loading' && (
        <Alert severity="info" icon={<CircularProgress size={18} />}>
          {t('users.move.previewLoading')}
        </Alert>
      )}
      {shown.state === 'failed' && <Alert severity="error">{t('users.caseload.failed', { message: shown.message })}</Alert>}
      {shown.state === 'done' && (
        <Alert severity={worker.caseload && shown.value.after.overflow > 0 ? 'warning' : 'info'} data-testid="move-preview">
          {worker.caseload
            ? t('users.move.previewAdds', {
                clients: Math.max(0, shown.value.added.clients),
                rows: Math.max(0, shown.value.added.rows),
                megabytes: mb(shown.value.added.megabytes),
                name: worker.name,
              })
            : t('users.move.previewNoDevice', { name: worker.name })}
          {worker.caseload && shown.value.after.overflow > 0 && (
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {t('users.caseload.overflow', { overflow: shown.value.after.overflow, bound: shown.value.after.bound })}
            </Typography>
          )}
        </Alert>
      )}
    </>
  );
}
