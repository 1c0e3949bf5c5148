// The other-job rows inside the job form: add, fill in and remove rows before saving; they are
// saved after the job (saveJob.ts). Each input follows the server's rules, like EntityForm's.
import { useId, useState } from 'react';
import { Box, Button, Chip, Grid, Paper, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import UndoIcon from '@mui/icons-material/Undo';
import { otherJob } from '../../../schemas/index';
import { fieldLabel } from '../../components/entity';
import { FieldInput, isWide } from '../../components/entity/FieldInput';
import { useDisplayContext } from '../../components/entity';
import { NotUploadedChip } from '../../components/AmberChip';
import { isRemovable, newRow, rowProblems, ROW_FIELDS, type OtherJobRow } from './otherJobRows';
import { useSay } from '../../lib/session';

interface EditorProps {
  rows: readonly OtherJobRow[];
  onChange: (rows: OtherJobRow[]) => void;
  disabled: boolean;
  /** A save was tried: show every problem, not only those of fields left. */
  showAll: boolean;
}

interface RowProps {
  row: OtherJobRow;
  index: number;
  disabled: boolean;
  showAll: boolean;
  onChange: (row: OtherJobRow) => void;
  onRemove: () => void;
}

function RowEditor({ row, index, disabled, showAll, onChange, onRemove }: RowProps) {
  const say = useSay();
  const ctx = useDisplayContext();
  const baseId = useId();
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const problems = rowProblems(row);
  const heading = say('jobs.form.row', { n: index + 1 });

  if (row.removed) {
    return (
      <Paper
        variant="outlined"
        sx={{ p: 1.5, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', opacity: 0.85 }}
        data-testid="other-job-editor-removed"
      >
        <Typography sx={{ flexGrow: 1 }}>{say('jobs.form.rowRemoved', { n: index + 1, title: String(row.values.title ?? '') })}</Typography>
        <Button size="small" startIcon={<UndoIcon />} onClick={() => onChange({ ...row, removed: false })} disabled={disabled}>
          {say('jobs.form.undo')}
        </Button>
      </Paper>
    );
  }

  return (
    <Paper
      variant="outlined"
      component="fieldset"
      sx={{ p: { xs: 1.5, sm: 2 }, pt: { xs: 1, sm: 1.5 }, m: 0, minWidth: 0 }}
      data-testid="other-job-editor"
      data-key={row.key}
    >
      <Box component="legend" sx={{ px: 0.5, typography: 'subtitle2' }}>
        {heading}
      </Box>
      {(row.saved === null || row.localOnly || isRemovable(row)) && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1.5 }}>
          {row.saved === null && <Chip size="small" color="primary" variant="outlined" label={say('jobs.form.rowNew')} />}
          {row.localOnly && <NotUploadedChip />}
          <Box sx={{ flexGrow: 1 }} />
          {isRemovable(row) && (
            <Button
              size="small"
              color="error"
              startIcon={<DeleteOutlineIcon />}
              onClick={onRemove}
              disabled={disabled}
              aria-label={say('jobs.form.removeRow', { n: index + 1 })}
            >
              {say('jobs.form.remove')}
            </Button>
          )}
        </Box>
      )}
      <Grid container spacing={2}>
        {ROW_FIELDS.map((name) => {
          const field = otherJob.fields[name];
          const label = fieldLabel(otherJob, name, ctx.t);
          const problem = problems[name];
          const error = problem && (touched[name] || showAll) ? ctx.t(problem.id, { field: label, ...problem.values }) : undefined;
          return (
            <Grid key={name} size={{ xs: 12, sm: isWide(field) ? 12 : 6 }}>
              <FieldInput
                entity={otherJob}
                name={name}
                field={field}
                id={`${baseId}-${name}`}
                label={label}
                value={row.values[name]}
                error={error}
                disabled={disabled}
                ctx={ctx}
                onChange={(value) => onChange({ ...row, values: { ...row.values, [name]: value } })}
                onBlur={() => setTouched((t) => (t[name] ? t : { ...t, [name]: true }))}
              />
            </Grid>
          );
        })}
      </Grid>
    </Paper>
  );
}

export function OtherJobRowsEditor({ rows, onChange, disabled, showAll }: EditorProps) {
  const say = useSay();
  const replace = (key: string, next: OtherJobRow | null) =>
    onChange(rows.flatMap((row) => (row.key !== key ? [row] : next ? [next] : [])));
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Typography variant="body2" color="text.secondary">
        {say('jobs.form.otherJobsHint')}
      </Typography>
      {rows.map((row, index) => (
        <RowEditor
          key={row.key}
          row={row}
          index={index}
          disabled={disabled}
          showAll={showAll}
          onChange={(next) => replace(row.key, next)}
          // A row never saved simply goes; one waiting on this device is discarded at the save.
          onRemove={() => replace(row.key, row.saved === null ? null : { ...row, removed: true })}
        />
      ))}
      <Box>
        <Button variant="outlined" startIcon={<AddIcon />} onClick={() => onChange([...rows, newRow()])} disabled={disabled}>
          {say('jobs.form.addRow')}
        </Button>
      </Box>
    </Box>
  );
}
