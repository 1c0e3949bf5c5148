// Add or edit one item of a lookup list: French and English labels, the organisation's
// abbreviation (it starts registration numbers, product.md §5), a service type's category, the
// active flag. Checked here as the server checks it; the server's word is shown too.
import { Alert, Checkbox, Dialog, DialogContent, DialogTitle, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import { useIntl } from 'react-intl';
import { itemLabel, langOf } from '../../components/entity';
import { useSay } from '../../lib/session';
import { LABEL_MAX, useItemDialog, type ItemDialogInput, type ItemValues } from './useItemDialog';
import { DialogButtons } from '../../components';

export interface ItemDialogProps extends ItemDialogInput {
  onClose: () => void;
}

export function ItemDialog({ onClose, ...input }: ItemDialogProps) {
  const say = useSay();
  const lang = langOf(useIntl().locale);
  const dialog = useItemDialog(input);
  const { item, parents } = input;
  const { values, shown, saving, withAbbr, withParent } = dialog;
  const set = (name: keyof ItemValues) => (event: { target: { value: string } }) => dialog.set(name, event.target.value);

  return (
    <Dialog open onClose={onClose} aria-labelledby="item-dialog-title" fullWidth maxWidth="sm">
      <form noValidate onSubmit={(e) => void dialog.submit(e)}>
        <DialogTitle id="item-dialog-title">{say(item ? 'lists.item.editTitle' : 'lists.item.addTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {dialog.failure && <Alert severity="error">{dialog.failure}</Alert>}
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
                disabled={saving || dialog.abbrLocked}
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
                control={<Checkbox checked={values.active} onChange={(e) => dialog.setActive(e.target.checked)} />}
                label={say('lists.item.active')}
                disabled={saving}
              />
            )}
          </Stack>
        </DialogContent>
        <DialogButtons onCancel={onClose} busy={saving} confirmLabel={say(item ? 'entityForm.save' : 'lists.item.add')} />
      </form>
    </Dialog>
  );
}
