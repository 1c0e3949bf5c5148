// A field worker's device as their administrator sees it on the user's page (docs/product.md
// §6.5.1): the clients, rows and estimated size their caseload puts on it, what the bound leaves
// out, and, while the form holds other territories than the saved ones, what that change would
// add to or remove from the device before it is saved. One user, one request (plus one preview
// per pause in the territories' editing): never one per row of the user list.
import { useEffect, useState } from 'react';
import { Alert, Box, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import {
  caseloadFailure,
  fetchCaseload,
  previewTerritories,
  type CaseloadFigures,
  type CaseloadPreview,
  type CaseloadStatus,
  type Load,
} from './usersApi';
import { useSay } from '../../lib/session';

/** The pause after the last change of the territories before the preview is asked. */
export const PREVIEW_DELAY_MS = 400;

/** True when both lists hold the same territories, whatever their order. */
export function sameTerritories(a: readonly number[], b: readonly number[]): boolean {
  const left = new Set(a);
  return left.size === new Set(b).size && b.every((id) => left.has(id));
}

/** The territories a form value holds (the multi-select's ids; none when empty). */
export function territoriesOf(value: unknown): number[] {
  return Array.isArray(value) ? value.map(Number).filter((n) => Number.isInteger(n)) : [];
}

/** The figures the caseload messages read: its counts (the flag that a count stopped at its bound
 * is for the client list's wording, no placeholder of these messages). */
function counts({ outsideIsLowerBound: _, ...figures }: CaseloadFigures): Omit<CaseloadFigures, 'outsideIsLowerBound'> {
  return figures;
}

/** A small spinner with what it waits for. */
function LoadingLine({ text }: { text: string }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <CircularProgress size={16} />
      <Typography variant="body2">{text}</Typography>
    </Stack>
  );
}

function Figures({ figures, testId }: { figures: CaseloadFigures; testId: string }) {
  const say = useSay();
  return (
    <Box data-testid={testId}>
      <Typography variant="body2">{say('users.caseload.figures', counts(figures))}</Typography>
      <Typography variant="body2" color="text.secondary">
        {say('users.caseload.breakdown', counts(figures))}
      </Typography>
      {figures.overflow > 0 && (
        <Alert severity="warning" sx={{ mt: 1 }} data-testid={`${testId}-overflow`}>
          {say('users.caseload.overflow', counts(figures))}
        </Alert>
      )}
    </Box>
  );
}

/** What the proposed territories change on the device: clients in or out, and the size after. */
function Preview({ preview }: { preview: CaseloadPreview }) {
  const say = useSay();
  const { added, after } = preview;
  const key =
    added.clients > 0
      ? 'users.caseload.preview.adds'
      : added.clients < 0
        ? 'users.caseload.preview.removes'
        : 'users.caseload.preview.same';
  const values = {
    clients: Math.abs(added.clients),
    rows: Math.abs(added.rows),
    megabytes: Math.abs(added.megabytes),
  };
  return (
    <Alert severity={after.overflow > 0 ? 'warning' : 'info'} data-testid="caseload-preview">
      <Typography variant="body2" sx={{ fontWeight: 500 }}>
        {say(key, values)}
      </Typography>
      <Typography variant="body2">{say('users.caseload.preview.after', counts(after))}</Typography>
      {after.overflow > 0 && <Typography variant="body2">{say('users.caseload.overflow', counts(after))}</Typography>}
    </Alert>
  );
}

/** The preview of `proposed` for `userId`, asked once the editing pauses; none while they equal `saved`. */
function usePreview(userId: string, saved: readonly number[], proposed: readonly number[], enabled: boolean) {
  const say = useSay();
  const changed = enabled && !sameTerritories(saved, proposed);
  // As text (an effect's dependency): "[]" when the change clears every territory.
  const wanted = changed ? JSON.stringify([...proposed].sort((a, b) => a - b)) : '';
  const [result, setResult] = useState<{ for: string; load: Load<CaseloadPreview> } | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    const timer = setTimeout(() => {
      const ids = territoriesOf(JSON.parse(wanted));
      previewTerritories(userId, ids).then(
        (value) => current && setResult({ for: wanted, load: { state: 'done', value } }),
        (error: unknown) => current && setResult({ for: wanted, load: { state: 'failed', message: caseloadFailure(say, error) } }),
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [userId, wanted, say]);
  if (!wanted) return null;
  return result?.for === wanted ? result.load : ({ state: 'loading' } as const);
}

export interface DeviceCaseloadProps {
  userId: string;
  /** The user's territories as saved. */
  saved: readonly number[];
  /** The territories the form holds now. */
  proposed: readonly number[];
  /** Changes after each save, so the figures are read again. */
  version: number;
}

export function DeviceCaseload({ userId, saved, proposed, version }: DeviceCaseloadProps) {
  const say = useSay();
  const [status, setStatus] = useState<{ key: string; load: Load<CaseloadStatus> } | null>(null);
  const key = `${userId}:${version}`;
  useEffect(() => {
    let current = true;
    fetchCaseload(userId).then(
      (value) => current && setStatus({ key, load: { state: 'done', value } }),
      (error: unknown) => current && setStatus({ key, load: { state: 'failed', message: caseloadFailure(say, error) } }),
    );
    return () => {
      current = false;
    };
  }, [userId, key, say]);
  const load: Load<CaseloadStatus> = status?.key === key ? status.load : { state: 'loading' };
  const caseload = load.state === 'done' && load.value.caseload;
  const preview = usePreview(userId, saved, proposed, caseload);
  // Only a field worker's device mirrors a caseload; other users' pages say nothing of it.
  if (load.state === 'done' && !load.value.caseload) return null;
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="device-caseload">
      <Stack spacing={1}>
        <Typography component="h2" variant="subtitle1">
          {say('users.caseload.title')}
        </Typography>
        {load.state === 'loading' && <LoadingLine text={say('common.loading')} />}
        {load.state === 'failed' && <Alert severity="error">{say('users.caseload.failed', { message: load.message })}</Alert>}
        {load.state === 'done' && <Figures figures={load.value.figures} testId="caseload-figures" />}
        {preview && (
          <Box aria-live="polite">
            <Typography component="h3" variant="subtitle2" sx={{ mb: 0.5 }}>
              {say('users.caseload.preview.title')}
            </Typography>
            {preview.state === 'loading' && <LoadingLine text={say('users.caseload.preview.loading')} />}
            {preview.state === 'failed' && <Alert severity="error">{say('users.caseload.failed', { message: preview.message })}</Alert>}
            {preview.state === 'done' && <Preview preview={preview.value} />}
          </Box>
        )}
      </Stack>
    </Paper>
  );
}
