// Add or edit one item of a lookup list: French and English labels, the organisation's
// abbreviation (it starts registration numbers, product.md §5), a service type's category, the
// active flag. Checked here as the server checks it; the server's word is shown too.
import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useIntl } from 'react-intl';
import { itemLabel, langOf, messageOf } from '../../components/entity';
import type { Item, NewItem } from './listsApi';

const LABEL_MAX = 200;
const ABBR = /^[A-Z0-9]{1,12}$/;

export interface ItemDialogProps {
  listKey: string;
  /** The item edited; undefined adds one. */
  item?: Item;
  /** The other items of the list (labels must differ). */
  others: readonly Item[];
  /** Items a service type may belong to (the category list). */
  parents?: readonly Item[];
  onSave: (values: NewItem & { active: boolean }) => Promise<void>;
  onClose: () => void;
}

type Values = { fr: string; en: string; abbr: string; parent: string; active: boolean };

const same = (a: string, b: string | undefined) => b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

export function ItemDialog({ listKey, item, others, parents, onSave, onClose }: ItemDialogProps) {
  const intl = useIntl();
  const say = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const lang = langOf(intl.locale);
  const withAbbr = listKey === 'organisation';
  const withParent = parents !== undefined;
  const [values, setValues] = useState<Values>({
    fr: item?.fr ?? '',
    en: item?.en ?? '',
    abbr: item?.abbr ?? '',
    parent: item?.parent ? String(item.parent) : '',
    active: item?.active ?? true,
  });
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string>();

  const problems: Partial<Record<keyof Values, string>> = {};
  for (const lang of ['fr', 'en'] as const) {
    const text = values[lang].trim();
    const field = say(`lists.item.${lang}`);
    if (!text) problems[lang] = say('entityForm.error.required', { field });
    else if (text.length > LABEL_MAX) problems[lang] = say('entityForm.error.maxLength', { field, limit: LABEL_MAX, count: text.length });
    else if (others.some((other) => same(text, other[lang]))) problems[lang] = say('lists.item.taken', { field });
  }
  if (withAbbr) {
    const abbr = values.abbr.trim();
    const field = say('lists.item.abbr');
    if (!abbr) problems.abbr = say('entityForm.error.required', { field });
    else if (!ABBR.test(abbr)) problems.abbr = say('lists.item.abbrRule');
    else if (others.some((other) => same(abbr, other.abbr))) problems.abbr = say('lists.item.taken', { field });
  }
  if (withParent && !values.parent) problems.parent = say('entityForm.error.required', { field: say('lists.item.parent') });
  const shown = (name: keyof Values) => (attempted ? problems[name] : undefined);
  const set = (name: keyof Values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: name === 'abbr' ? event.target.value.toUpperCase() : event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (Object.keys(problems).length) return;
    setSaving(true);
    setFailure(undefined);
    try {
      await onSave({
        fr: values.fr.trim(),
        en: values.en.trim(),
        ...(withAbbr ? { abbr: values.abbr.trim() } : {}),
        ...(withParent ? { parent: Number(values.parent) } : {}),
        active: values.active,
      });
    } catch (error) {
      setFailure(messageOf(error));
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="item-dialog-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id="item-dialog-title">{say(item ? 'lists.item.editTitle' : 'lists.item.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {failure && <Alert severity="error">{failure}</Alert>}
            <TextField
              label={say('lists.item.fr')}
              value={values.fr}
              onChange={set('fr')}
              required
              error={Boolean(shown('fr'))}
              helperText={shown('fr')}
              slotProps={{ htmlInput: { lang: 'fr', maxLength: LABEL_MAX } }}
              autoFocus
              disabled={saving}
            />
            <TextField
              label={say('lists.item.en')}
              value={values.en}
              onChange={set('en')}
              required
              error={Boolean(shown('en'))}
              helperText={shown('en')}
              slotProps={{ htmlInput: { lang: 'en', maxLength: LABEL_MAX } }}
              disabled={saving}
            />
            {withAbbr && (
              <TextField
                label={say('lists.item.abbr')}
                value={values.abbr}
                onChange={set('abbr')}
                required
                error={Boolean(shown('abbr'))}
                helperText={shown('abbr') ?? say('lists.item.abbrHelp')}
                slotProps={{ htmlInput: { maxLength: 12, autoCapitalize: 'characters' } }}
                disabled={saving || (item?.abbr !== undefined && item.abbr !== '')}
              />
            )}
            {withParent && (
              <TextField
                select
                label={say('lists.item.parent')}
                value={values.parent}
                onChange={set('parent')}
                required
                error={Boolean(shown('parent'))}
                helperText={shown('parent')}
                disabled={saving}
              >
                {(parents ?? []).map((parent) => (
                  <MenuItem key={parent.id} value={String(parent.id)}>
                    {itemLabel(parent, lang)}
                    {parent.active ? '' : ` (${say('lists.inactive')})`}
                  </MenuItem>
                ))}
              </TextField>
            )}
            {item && (
              <FormControlLabel
                control={<Checkbox checked={values.active} onChange={(e) => setValues((v) => ({ ...v, active: e.target.checked }))} />}
                label={say('lists.item.active')}
                disabled={saving}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            {say('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {say(item ? 'entityForm.save' : 'lists.item.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
