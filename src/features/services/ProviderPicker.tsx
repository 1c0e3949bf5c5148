// Choosing the provider a new service belongs to: a search over the providers through the data
// layer (the API online, the providers on this device offline), a few at a time.
import { useEffect, useState } from 'react';
import { Autocomplete, Box, CircularProgress, TextField, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { recordTitle, serviceProvider } from '../../../schemas/index';
import { lookupLabel, langOf, useLookupLists } from '../../components/entity';
import { type Doc, useDataLayer } from '../../lib/data';
import { savesOnline } from './feedback';
import { useSay } from '../../lib/session';

export type Provider = Doc<typeof serviceProvider>;

const PAGE = 20;
const DEBOUNCE_MS = 300;

interface Found {
  text: string;
  rows: Provider[];
}

/** Providers matching `text`, asked after a pause in typing; the last answer wins. */
function useProviderSearch(text: string, open: boolean): { rows: Provider[]; loading: boolean; error: boolean } {
  const data = useDataLayer();
  const [found, setFound] = useState<Found | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    if (!data || !open) return undefined;
    let current = true;
    const timer = setTimeout(() => {
      data.list(serviceProvider, { q: text.trim() || undefined, pageSize: PAGE, sort: serviceProvider.title[0], dir: 'asc' }).then(
        (page) => current && setFound({ text, rows: page.rows }),
        () => current && setFailed(text),
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [data, text, open]);
  const settled = found?.text === text || failed === text;
  return { rows: found?.rows ?? [], loading: open && !settled, error: failed === text };
}

export interface ProviderPickerProps {
  value: Provider | null;
  onChange: (provider: Provider | null) => void;
  error?: string;
  autoFocus?: boolean;
}

export function ProviderPicker({ value, onChange, error, autoFocus }: ProviderPickerProps) {
  const intl = useIntl();
  const lists = useLookupLists();
  const lang = langOf(intl.locale);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const search = useProviderSearch(text, open);
  const say = useSay();
  const territory = (p: Provider) => lookupLabel(lists, 'territory', p.territory, lang);

  return (
    <Autocomplete<Provider>
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={value}
      onChange={(_event, provider) => onChange(provider)}
      inputValue={text}
      onInputChange={(_event, next, reason) => reason !== 'reset' && setText(next)}
      options={search.rows}
      // The server searched already: show what it answered.
      filterOptions={(options) => options}
      getOptionLabel={(p) => recordTitle(serviceProvider, p)}
      isOptionEqualToValue={(a, b) => a.sp_Id === b.sp_Id}
      loading={search.loading}
      loadingText={say('common.loading')}
      noOptionsText={say(search.error ? 'services.provider.failed' : 'services.provider.noMatch')}
      renderOption={(props, p) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <Box component="li" key={key} {...rest} sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start !important' }}>
            <span>{recordTitle(serviceProvider, p)}</span>
            <Typography variant="caption" color="text.secondary">
              {[territory(p), p.sp_Address].filter(Boolean).join(' · ')}
            </Typography>
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={say('field.service.sp_Id')}
          required
          autoFocus={autoFocus}
          error={Boolean(error)}
          helperText={error ?? say(savesOnline() ? 'services.provider.help' : 'services.provider.helpOffline')}
          slotProps={{
            ...params.slotProps,
            input: {
              ...params.slotProps.input,
              endAdornment: (
                <>
                  {search.loading ? <CircularProgress color="inherit" size={18} aria-hidden /> : null}
                  {params.slotProps.input.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
