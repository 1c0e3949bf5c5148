// /audit/clients, "Client data requests" (ADR-0036): a client asks to see or to remove what
// is held about them. Role 1 finds any client, role 7 those of its organisation (the server's
// scope); each found client can be exported (ZIP) or erased, with a reason and the password.
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  InputAdornment,
  LinearProgress,
  List,
  ListItem,
  TextField,
  Typography,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import SearchIcon from '@mui/icons-material/Search';
import { Page } from '../../components';
import { lookupLabel, messageOf, useDisplayContext } from '../../components/entity';
import { useDebouncedValue, SEARCH_DEBOUNCE_MS } from '../../components/entity/useGridQuery';
import { searchClients } from './auditApi';
import { ClientDataActions } from './ClientDataActions';
import { AUDIT_PATH } from './paths';
import type { ClientMatch } from './types';

/** Shortest search sent: one letter would list half the clients. */
export const MIN_QUERY = 2;

type Found = { status: 'idle' } | { status: 'loading' } | { status: 'ready'; rows: ClientMatch[] } | { status: 'failed'; message: string };

/** The answer to the search `q` (asked again when `version` changes); idle below MIN_QUERY. */
function useClientSearch(q: string, version: number): Found {
  const text = q.trim();
  const key = JSON.stringify([text, version]);
  const [answer, setAnswer] = useState<{ key: string; found: Found } | null>(null);
  useEffect(() => {
    if (text.length < MIN_QUERY) return undefined;
    let current = true;
    searchClients(text).then(
      (rows) => current && setAnswer({ key, found: { status: 'ready', rows } }),
      (error: unknown) => current && setAnswer({ key, found: { status: 'failed', message: messageOf(error) } }),
    );
    return () => {
      current = false;
    };
  }, [key, text]);
  if (text.length < MIN_QUERY) return { status: 'idle' };
  return answer?.key === key ? answer.found : { status: 'loading' };
}

export function ClientRequestsPage() {
  const ctx = useDisplayContext();
  const [text, setText] = useState('');
  const q = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  // An erasure searches again: the erased client is no longer found.
  const [version, setVersion] = useState(0);
  const found = useClientSearch(q, version);
  const back = (
    <Button component={RouterLink} to={AUDIT_PATH} startIcon={<ArrowBackIcon />}>
      {ctx.t('audit.clients.back')}
    </Button>
  );
  return (
    <Page title={ctx.t('screens.auditClients')} actions={back}>
      <Typography color="text.secondary">{ctx.t('audit.clients.intro')}</Typography>
      <Box role="search">
        <TextField
          type="search"
          size="small"
          label={ctx.t('audit.clients.search')}
          helperText={ctx.t('audit.clients.searchHelp')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          sx={{ width: '100%', maxWidth: 480 }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: { 'data-testid': 'audit-clients-search' },
          }}
        />
      </Box>
      {found.status === 'loading' && <LinearProgress aria-label={ctx.t('common.loading')} />}
      {found.status === 'failed' && (
        <Alert severity="error" data-testid="audit-clients-failed">
          {ctx.t('audit.clients.failed', { message: found.message })}
        </Alert>
      )}
      {found.status === 'ready' && found.rows.length === 0 && (
        <Typography color="text.secondary" data-testid="audit-clients-none">
          {ctx.t('audit.clients.none')}
        </Typography>
      )}
      {found.status === 'ready' && found.rows.length > 0 && (
        <List
          disablePadding
          aria-label={ctx.t('audit.clients.results')}
          sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
          data-testid="audit-clients-results"
        >
          {found.rows.map((row) => (
            <ListItem key={row.profId} disableGutters disablePadding data-testid="audit-client-row" data-id={row.profId}>
              <Card variant="outlined" sx={{ width: '100%' }}>
                <CardContent
                  sx={{
                    display: 'flex',
                    flexWrap: 'wrap',
                    gap: 1.5,
                    alignItems: 'center',
                    justifyContent: 'space-between',
                    '&:last-child': { pb: 2 },
                  }}
                >
                  <Box sx={{ minWidth: 0 }}>
                    <Typography component="p" variant="subtitle1" sx={{ overflowWrap: 'anywhere' }}>
                      {row.name}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      <Box component="span" sx={{ fontFamily: 'monospace' }} data-testid="audit-client-regno">
                        {row.regNo}
                      </Box>
                      {row.location ? ` · ${lookupLabel(ctx.lists, 'organisation', row.location, ctx.lang)}` : ''}
                    </Typography>
                  </Box>
                  <ClientDataActions
                    profId={row.profId}
                    name={row.name}
                    regNo={row.regNo}
                    size="small"
                    onErased={() => setVersion((n) => n + 1)}
                  />
                </CardContent>
              </Card>
            </ListItem>
          ))}
        </List>
      )}
    </Page>
  );
}
