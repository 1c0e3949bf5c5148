import { Navigate } from 'react-router';
import { Alert, Grid } from '@mui/material';
import { useIntl } from 'react-intl';
import { Page, usePreferences, useSessionUser } from '../../components';
import { StatTile } from './StatTile';
import { tilesFor } from './tiles';
import { useGeneralStats } from './useGeneralStats';

/** Dashboard (spec §2). Offline users belong on the offline home instead. */
export function HomePage() {
  const intl = useIntl();
  const { mode } = usePreferences();
  const user = useSessionUser();
  const stats = useGeneralStats(mode === 'online');
  if (mode === 'offline') return <Navigate to="/offlinehp" replace />;
  const tiles = tilesFor(user?.role);
  return (
    <Page title={intl.formatMessage({ id: 'home.title' })}>
      <Grid container spacing={2}>
        {tiles.map((tile) => (
          <Grid key={tile.id} size={{ xs: 12, sm: 6, lg: 3 }}>
            <StatTile
              id={tile.id}
              label={intl.formatMessage({ id: tile.labelId })}
              count={stats ? stats[tile.stat] : null}
              to={tile.to}
              color={tile.color}
              icon={tile.icon}
            />
          </Grid>
        ))}
      </Grid>
      <Alert severity="info">{intl.formatMessage({ id: 'home.chartsComing' })}</Alert>
    </Page>
  );
}
