import { memo, useId, useState } from 'react';
import { Box, Button, Card, CardContent, Collapse, Grid, LinearProgress, List, ListItem, ListItemText, Typography } from '@mui/material';
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useIntl } from 'react-intl';
import { emptyKind, type KindReport, type UploadReport } from '../../lib/sync';
import { UPLOAD_KINDS, type PendingCounts } from './counts';
import { usePendingNames } from './pendingNames';
import { useSay } from '../../lib/session';

type Figure = 'total' | 'success' | 'failed' | 'skipped' | 'images' | 'imagesFailed';
const FIGURES: Figure[] = ['total', 'success', 'failed', 'skipped', 'images', 'imagesFailed'];

/** Before any upload the cards show what is waiting; afterwards the engine's figures. Only the
 * kinds the run touched (or that wait) get a card: a report of what happened, not of zeros. */
export function kindsToShow(report: UploadReport | null, counts: PendingCounts | null): KindReport[] {
  const kinds =
    report && report.kinds.length > 0 ? report.kinds : UPLOAD_KINDS.map((entity) => emptyKind(entity, counts?.[entity.table] ?? 0));
  return kinds.filter((kind) => kind.total > 0);
}

/** The figures a card shows: the record counts always, the images' only when there were some. */
function figuresOf(kind: KindReport): Figure[] {
  return FIGURES.filter((figure) => (figure !== 'images' && figure !== 'imagesFailed') || kind.images + kind.imagesFailed > 0);
}

/** The colour of a figure that is not zero, by the tone it carries. */
function figureTone(figure: Figure): 'success' | 'error' | 'warning' | undefined {
  if (figure === 'success') return 'success';
  if (figure === 'failed' || figure === 'imagesFailed') return 'error';
  if (figure === 'skipped') return 'warning';
  return undefined;
}

// One style for the 78 figures of the 13 cards, on their list: plain <dt>/<dd> under it cost
// far less to render than a styled component each (the offline home shows them at start-up).
const FIGURES_SX = {
  m: 0,
  display: 'grid',
  gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' },
  gap: 0.5,
  '& > div': { minWidth: 0 },
  '& dt': { typography: 'caption', color: 'text.secondary', display: 'block', lineHeight: 1.2 },
  '& dd': { typography: 'body1', m: 0, fontWeight: 600 },
  '& dd[data-tone="success"]': { color: 'success.main' },
  '& dd[data-tone="error"]': { color: 'error.main' },
  '& dd[data-tone="warning"]': { color: 'warning.main' },
} as const;

/** A kind's report as the card shows it: its figures and errors. */
function sameReport(a: KindReport, b: KindReport): boolean {
  return (
    a.table === b.table &&
    FIGURES.every((figure) => a[figure] === b[figure]) &&
    a.errors.length === b.errors.length &&
    a.errors.every((e, i) => e.key === b.errors[i]?.key && e.message === b.errors[i]?.message)
  );
}

// Drawn again only when its own figures change: during an upload the live counts and the
// progress re-render the offline home several times a second, mostly for one kind at a time
// (13 cards of styled components were most of the page's React time; docs/performance.md).
const KindCard = memo(
  function KindCard({ kind }: { kind: KindReport }) {
    const intl = useIntl();
    const say = useSay();
    const { kindName } = usePendingNames();
    const [open, setOpen] = useState(false);
    const errorsId = useId();
    const name = kindName(kind.table);
    const titleId = useId();
    return (
      <Card variant="outlined" component="section" aria-labelledby={titleId} data-testid={`report-${kind.table}`} sx={{ height: '100%' }}>
        <CardContent sx={{ p: { xs: 1, sm: 1.5 }, '&:last-child': { pb: { xs: 1, sm: 1.5 } } }}>
          <Typography id={titleId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
            {name}
          </Typography>
          <Box component="dl" sx={FIGURES_SX}>
            {figuresOf(kind).map((figure) => (
              <div key={figure}>
                <dt>{say(`offline.report.${figure}`)}</dt>
                <dd data-testid={`report-${kind.table}-${figure}`} data-tone={kind[figure] === 0 ? undefined : figureTone(figure)}>
                  {intl.formatNumber(kind[figure])}
                </dd>
              </div>
            ))}
          </Box>
          {kind.errors.length > 0 && (
            <>
              <Button
                size="small"
                color="error"
                onClick={() => setOpen((v) => !v)}
                aria-expanded={open}
                aria-controls={errorsId}
                endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
                sx={{ mt: 0.5, px: 0.5 }}
              >
                {say('offline.report.errors', { count: kind.errors.length })}
              </Button>
              <Collapse in={open} id={errorsId}>
                <List dense disablePadding>
                  {kind.errors.map((error, i) => (
                    <ListItem key={`${error.key}-${i}`} disableGutters>
                      <ListItemText
                        primary={error.message}
                        secondary={error.key}
                        slotProps={{ primary: { color: 'error', variant: 'body2' }, secondary: { sx: { wordBreak: 'break-all' } } }}
                      />
                    </ListItem>
                  ))}
                </List>
              </Collapse>
            </>
          )}
        </CardContent>
      </Card>
    );
  },
  (before, after) => sameReport(before.kind, after.kind),
);

/** The overall progress bar with its percent (product.md §2 Offline home). */
export const UploadProgress = memo(function UploadProgress({ report, running }: { report: UploadReport | null; running: boolean }) {
  const intl = useIntl();
  const say = useSay();
  const labelId = useId();
  const percent = Math.max(0, Math.min(100, Math.round(report?.percent ?? 0)));
  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mb: 0.5 }}>
        <Typography id={labelId} variant="body2" sx={{ fontWeight: 600 }}>
          {say('offline.progress')}
        </Typography>
        <Typography variant="body2" data-testid="upload-percent" aria-live={running ? 'polite' : 'off'}>
          {report
            ? say('offline.progressText', { uploaded: intl.formatNumber(report.uploaded), total: intl.formatNumber(report.total), percent })
            : intl.formatNumber(0, { style: 'percent' })}
        </Typography>
      </Box>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-labelledby={labelId}
        data-testid="upload-progress"
        sx={{ height: 10, borderRadius: 5 }}
      />
    </Box>
  );
});

/** Per-kind reports (product.md §2): jobs, other jobs, … images, in upload order. */
export function ReportCards({ report, counts }: { report: UploadReport | null; counts: PendingCounts | null }) {
  const say = useSay();
  const kinds = kindsToShow(report, counts);
  if (kinds.length === 0)
    return (
      <Typography variant="body2" data-testid="report-empty">
        {say('offline.report.nothing')}
      </Typography>
    );
  return (
    <Grid container spacing={{ xs: 1, sm: 1.5 }}>
      {kinds.map((kind) => (
        <Grid key={kind.table} size={{ xs: 6, md: 4, xl: 3 }}>
          <KindCard kind={kind} />
        </Grid>
      ))}
    </Grid>
  );
}
