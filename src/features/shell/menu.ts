// Sidebar menus of product.md §2 "Shell", in order, with the role keys of schemas/roles.ts (product.md §6).
import type SvgIcon from '@mui/material/SvgIcon';
import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import AssessmentIcon from '@mui/icons-material/Assessment';
import BlockIcon from '@mui/icons-material/Block';
import BusinessIcon from '@mui/icons-material/Business';
import CorporateFareIcon from '@mui/icons-material/CorporateFare';
import GroupIcon from '@mui/icons-material/Group';
import HistoryIcon from '@mui/icons-material/History';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import ListAltIcon from '@mui/icons-material/ListAlt';
import MiscellaneousServicesIcon from '@mui/icons-material/MiscellaneousServices';
import PasswordIcon from '@mui/icons-material/Password';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PeopleIcon from '@mui/icons-material/People';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import ShareIcon from '@mui/icons-material/Share';
import VerifiedIcon from '@mui/icons-material/Verified';
import WorkIcon from '@mui/icons-material/Work';
import { can, canOpen, type Permission } from '../../lib/permissions';
import type { Lang, SessionUser } from '../../lib/session';

export type BadgeKind = 'pending' | 'rejected';

export interface MenuEntry {
  id: string;
  labelId: string;
  to: string;
  icon: typeof SvgIcon;
  badge?: BadgeKind;
}

export interface MenuGroup {
  id: string;
  /** Header shown when the sidebar is expanded; single-item groups have none. */
  labelId?: string;
  items: MenuEntry[];
}

interface EntryRule extends MenuEntry {
  permission: Permission;
  /** Extra condition beyond the role, e.g. "Add Clients" needs an organisation. */
  when?: (user: SessionUser) => boolean;
}

interface GroupRule {
  id: string;
  labelId?: string;
  permission?: Permission;
  items: EntryRule[];
}

function rules(lang: Lang): GroupRule[] {
  return [
    {
      id: 'admin',
      labelId: 'menu.administration',
      permission: 'menu.administration',
      items: [
        { id: 'users', labelId: 'menu.userManagement', to: '/users', icon: GroupIcon, permission: 'menu.userManagement' },
        {
          id: 'organisations',
          labelId: 'menu.organisations',
          to: '/organisations',
          icon: CorporateFareIcon,
          permission: 'menu.organisations',
        },
        { id: 'lists', labelId: 'menu.listManagement', to: '/lists', icon: ListAltIcon, permission: 'menu.listManagement' },
        { id: 'audit', labelId: 'menu.audit', to: '/audit', icon: HistoryIcon, permission: 'menu.audit' },
      ],
    },
    {
      id: 'account',
      items: [
        { id: 'chngpas', labelId: 'menu.changePassword', to: '/users/chngpas', icon: PasswordIcon, permission: 'menu.changePassword' },
      ],
    },
    {
      id: 'sp',
      labelId: 'menu.serviceProviders',
      permission: 'menu.serviceProviders',
      items: [
        { id: 'spList', labelId: 'menu.spList', to: '/serviceproviders', icon: BusinessIcon, permission: 'menu.serviceProviders' },
        {
          id: 'services',
          labelId: 'menu.services',
          to: '/serviceproviders/services',
          icon: MiscellaneousServicesIcon,
          permission: 'menu.services',
        },
        {
          id: 'verify',
          labelId: 'menu.verify',
          to: '/serviceproviders/verify',
          icon: VerifiedIcon,
          permission: 'menu.verify',
          badge: 'pending',
        },
        {
          id: 'rejected',
          labelId: 'menu.rejected',
          to: '/serviceproviders/rejected',
          icon: BlockIcon,
          permission: 'menu.rejected',
          badge: 'rejected',
        },
        {
          id: 'addSp',
          labelId: 'menu.addServiceProvider',
          to: '/serviceproviders/add',
          icon: AddBusinessIcon,
          permission: 'menu.addServiceProvider',
        },
      ],
    },
    {
      id: 'employers',
      labelId: 'menu.employers',
      permission: 'menu.employers',
      items: [
        { id: 'jobs', labelId: 'menu.availableJobs', to: '/availablejobs', icon: WorkIcon, permission: 'menu.employers' },
        { id: 'addJob', labelId: 'menu.addAvailableJobs', to: '/availablejobs/add', icon: PlaylistAddIcon, permission: 'menu.employers' },
      ],
    },
    {
      id: 'clients',
      labelId: 'menu.clients',
      permission: 'menu.clients',
      items: [
        { id: 'clientList', labelId: 'menu.clientList', to: '/profiles', icon: PeopleIcon, permission: 'menu.clients' },
        {
          id: 'addClient',
          labelId: 'menu.addClients',
          to: '/profiles/add',
          icon: PersonAddIcon,
          permission: 'menu.clients',
          when: (user) => user.location !== 0,
        },
      ],
    },
    {
      id: 'more',
      items: [
        { id: 'referrals', labelId: 'menu.referrals', to: '/referral', icon: ShareIcon, permission: 'menu.referrals' },
        { id: 'reports', labelId: 'menu.reports', to: '/reports', icon: AssessmentIcon, permission: 'menu.reports' },
        { id: 'help', labelId: 'menu.help', to: `/help/${lang}`, icon: HelpOutlineIcon, permission: 'menu.help' },
      ],
    },
  ];
}

function visibleEntries(items: EntryRule[], user: SessionUser): MenuEntry[] {
  return (
    items
      // The entry's own key, and the route of its target: no menu leads to the 403 page.
      .filter((item) => can(user.role, item.permission) && canOpen(user.role, item.to) && (item.when?.(user) ?? true))
      .map(({ id, labelId, to, icon, badge }) => ({ id, labelId, to, icon, badge }))
  );
}

/** The menu this user may see; empty groups disappear (product.md §6: unknown keys are hidden). */
export function menuFor(user: SessionUser, lang: Lang): MenuGroup[] {
  return rules(lang)
    .filter((group) => !group.permission || can(user.role, group.permission))
    .map((group) => ({ id: group.id, labelId: group.labelId, items: visibleEntries(group.items, user) }))
    .filter((group) => group.items.length > 0);
}

/** Which badge counts this user sees; the pending badge has its own key (menu.pendingBadge). */
export function visibleBadges(user: SessionUser): Record<BadgeKind, boolean> {
  return {
    pending: can(user.role, 'menu.verify') && can(user.role, 'menu.pendingBadge'),
    rejected: can(user.role, 'menu.rejected'),
  };
}
