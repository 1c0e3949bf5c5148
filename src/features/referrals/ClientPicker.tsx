// Choosing the client of a referral made from the list: a search by name or registration
// number among the clients the server lets the user see (its organisation's).
import { useEffect, useState } from 'react';
import { Autocomplete, CircularProgress, TextField } from '@mui/material';
import { useDebouncedValue } from '../../components/entity/useGridQuery';
import { findClients, type Row } from './referralApi';
import { clientName } from './names';
import { useSay } from '../../lib/session';

export const clientLabel = (client: Row) => `${clientName(client)} (${String(client.prof_Reg_No ?? '')})`;

export function ClientPicker({ value, onChange }: { value: Row | null; onChange: (client: Row | null) => void }) {
  const say = useSay();
  const [input, setInput] = useState('');
  // The chosen client's own label in the box is not a search.
  const typed = value && input === clientLabel(value) ? '' : input.trim();
  const q = useDebouncedValue(typed, 300);
  const [found, setFound] = useState<{ q: string; rows: Row[] } | null>(null);
  useEffect(() => {
    if (q.length < 2) return;
    let current = true;
    findClients(q).then(
      (rows) => current && setFound({ q, rows }),
      (error: unknown) => {
        console.warn('Client search failed:', error);
        if (current) setFound({ q, rows: [] });
      },
    );
    return () => {
      current = false;
    };
  }, [q]);
  const options = q.length >= 2 && found?.q === q ? found.rows : [];
  const loading = q.length >= 2 && found?.q !== q;
  return (
    <Autocomplete<Row>
      value={value}
      onChange={(_event, next) => onChange(next)}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      options={value && !options.some((o) => o.prof_Id === value.prof_Id) ? [value, ...options] : options}
      filterOptions={(all) => all}
      getOptionLabel={clientLabel}
      isOptionEqualToValue={(a, b) => a.prof_Id === b.prof_Id}
      loading={loading}
      noOptionsText={say(q.length < 2 ? 'referrals.new.clientTypeMore' : 'referrals.new.clientNone')}
      loadingText={say('common.loading')}
      renderInput={(params) => (
        <TextField
          {...params}
          required
          label={say('referrals.new.client')}
          slotProps={{
            ...params.slotProps,
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {loading ? <CircularProgress size={18} aria-label={say('common.loading')} /> : null}
                  {params.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
      data-testid="client-picker"
    />
  );
}
