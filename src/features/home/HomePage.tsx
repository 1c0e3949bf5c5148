import { Navigate } from 'react-router';
import { Alert, Grid } from '@mui/material';
import type SvgIcon from '@mui/material/SvgIcon';
import MiscellaneousServicesIcon from '@mui/icons-material/MiscellaneousServices';
import PeopleIcon from '@mui/icons-material/People';
import ShareIcon from '@mui/icons-material/Share';
import WorkIcon from '@mui/icons-material/Work';
import { useIntl } from 'react-intl';
import { Page, usePreferences, useSessionUser } from '../../components';
import { can, type Permission } from '../../lib/permissions';
import { StatTile } from './StatTile';
import { useGeneralStats, type GeneralStats } from './useGeneralStats';

interface TileRule {
  id: string;
  labelId: string;
  stat: keyof GeneralStats;
  to: string;
  color: string;
  icon: typeof SvgIcon;
  /** Tile shown at all (spec §6); absent means every role. */
  show?: Permission;
  link: Permission;
}

// Spec §2 Home: Services, Available Jobs, Clients, Referrals, each with 'More info'.
const TILES: TileRule[] = [
  { id: 'services', labelId: 'home.services', stat: 'services', to: '/serviceproviders', color: '#00838f', icon: MiscellaneousServicesIcon, link: 'tile.servicesLink' },
  { id: 'jobs', labelId: 'home.jobs', stat: 'jobs', to: '/availablejobs', color: '#2e7d32', icon: WorkIcon, link: 'tile.jobsLink' },
  { id: 'clients', labelId: 'home.clients', stat: 'profiles', to: '/profiles', color: '#9a5b00', icon: PeopleIcon, show: 'tile.clients', link: 'tile.clientsLink' },
  { id: 'referrals', labelId: 'home.referrals', stat: 'referrals', to: '/referral', color: '#c62828', icon: ShareIcon, show: 'tile.referrals', link: 'tile.referralsLink' },
];

/** Dashboard (spec §2). Offline users belong on the offline home instead. */
export function HomePage() {
  const intl = useIntl();
  const { mode } = usePreferences();
  const user = useSessionUser();
  const stats = useGeneralStats(mode === 'online');
  if (mode === 'offline') return <Navigate to="/offlinehp" replace />;
  const role = user?.role;
  const tiles = TILES.filter((tile) => !tile.show || can(role, tile.show));
  return (
    <Page title={intl.formatMessage({ id: 'home.title' })}>
      <Grid container spacing={2}>
        {tiles.map((tile) => (
          <Grid key={tile.id} size={{ xs: 12, sm: 6, lg: 3 }}>
            <StatTile
              id={tile.id}
              label={intl.formatMessage({ id: tile.labelId })}
              count={stats ? stats[tile.stat] : null}
              to={can(role, tile.link) ? tile.to : null}
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
