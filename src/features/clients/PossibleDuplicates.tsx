// Clients who may be the one being registered (ADR-0028): same names and birth date (case and
// accents ignored) or the same phone, from the server (within the user's organisation) and this
// device. A warning with links, never a block: two people may share a name.
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Alert, AlertTitle, Box, Link } from '@mui/material';
import { profile, recordTitle } from '../../../schemas/index';
import { type DuplicateClient, type DuplicateQuery, useDataLayer } from '../../lib/data';
import { formatDate } from '../../lib/ui';
import type { DisplayContext } from '../../components/entity';
import { clientPath } from './paths';

/** The search, run when the query's values change; an empty list when it cannot be made. */
export function useDuplicates(query: DuplicateQuery | null): DuplicateClient[] {
  const data = useDataLayer();
  const text = query ? JSON.stringify(query) : '';
  const [found, setFound] = useState<{ text: string; rows: DuplicateClient[] }>({ text: '', rows: [] });
  useEffect(() => {
    if (!data || !text) return undefined;
    let current = true;
    data.findDuplicates(JSON.parse(text) as DuplicateQuery).then(
      (rows) => current && setFound({ text, rows }),
      (error: unknown) => console.warn('Duplicate search failed:', error),
    );
    return () => {
      current = false;
    };
  }, [data, text]);
  return found.text === text ? found.rows : [];
}

export function PossibleDuplicates({ rows, ctx }: { rows: readonly DuplicateClient[]; ctx: DisplayContext }) {
  if (!rows.length) return null;
  return (
    <Alert severity="warning" data-testid="possible-duplicates">
      <AlertTitle>{ctx.t('clients.duplicates.title', { count: rows.length })}</AlertTitle>
      {ctx.t('clients.duplicates.text')}
      <Box component="ul" sx={{ m: 0, mt: 1, pl: 2.5 }}>
        {rows.map((row) => (
          <li key={row.prof_Id}>
            <Link component={RouterLink} to={clientPath(row.prof_Id)}>
              {row.prof_Reg_No}
            </Link>
            {` — ${recordTitle(profile, row, 'short')}`}
            {row.birthDate ? `, ${formatDate(row.birthDate, ctx.lang)}` : ''}
            {row.phone ? `, ${row.phone}` : ''}
            {` (${row.match.map((m) => ctx.t(`clients.duplicates.match.${m}`)).join(', ')})`}
            {row.local ? ` — ${ctx.t('entityGrid.notUploaded')}` : ''}
          </li>
        ))}
      </Box>
    </Alert>
  );
}
