// The dashboard's count tiles (product.md §2 Home: Services, Available Jobs, Clients, Referrals, each
// with 'More info'), and which of them a role sees with a working link.
import type SvgIcon from '@mui/material/SvgIcon';
import MiscellaneousServicesIcon from '@mui/icons-material/MiscellaneousServices';
import PeopleIcon from '@mui/icons-material/People';
import ShareIcon from '@mui/icons-material/Share';
import WorkIcon from '@mui/icons-material/Work';
import { can, canOpen, type Permission } from '../../lib/session';
import type { GeneralStats } from './dashboardData';
import { CLIENTS_PATH } from '../clients/paths';
import { JOBS_PATH } from '../jobs/paths';
import { PROVIDERS_PATH } from '../providers/paths';
import { REFERRALS_PATH } from '../referrals/paths';

export interface Tile {
  id: string;
  labelId: string;
  stat: keyof GeneralStats;
  /** The 'More info' target; null when the role may not open it (no link to the 403 page). */
  to: string | null;
  color: string;
  icon: typeof SvgIcon;
}

interface TileRule extends Omit<Tile, 'to'> {
  to: string;
  /** Tile shown at all (product.md §6); absent means every role. */
  show?: Permission;
}

const TILES: readonly TileRule[] = [
  {
    id: 'services',
    labelId: 'home.services',
    stat: 'services',
    to: PROVIDERS_PATH,
    color: '#00838f',
    icon: MiscellaneousServicesIcon,
  },
  { id: 'jobs', labelId: 'home.jobs', stat: 'jobs', to: JOBS_PATH, color: '#2e7d32', icon: WorkIcon },
  { id: 'clients', labelId: 'home.clients', stat: 'profiles', to: CLIENTS_PATH, color: '#9a5b00', icon: PeopleIcon, show: 'tile.clients' },
  {
    id: 'referrals',
    labelId: 'home.referrals',
    stat: 'referrals',
    to: REFERRALS_PATH,
    color: '#c62828',
    icon: ShareIcon,
    show: 'tile.referrals',
  },
];

/** The tiles `role` sees; each link only where the role may open its target route. */
export function tilesFor(role: number | null | undefined): Tile[] {
  return TILES.filter((tile) => !tile.show || can(role, tile.show)).map(({ id, labelId, stat, to, color, icon }) => ({
    id,
    labelId,
    stat,
    to: canOpen(role, to) ? to : null,
    color,
    icon,
  }));
}
