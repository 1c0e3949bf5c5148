import { Fragment } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useIntl } from 'react-intl';
import {
  Badge,
  Divider,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Tooltip,
} from '@mui/material';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import type { SessionUser } from '../../lib/session';
import type { MenuEntry, MenuGroup } from './menu';
import type { PendingCounts } from './usePendingStats';

interface SidebarMenuProps {
  user: SessionUser;
  groups: MenuGroup[];
  /** Full labels (expanded or temporary drawer) versus the icon-only mini variant. */
  expanded: boolean;
  counts: PendingCounts | null;
  badges: { pending: boolean; rejected: boolean };
  onNavigate: () => void;
}

function isCurrent(pathname: string, to: string): boolean {
  const path = to.split('?')[0];
  return pathname === path;
}

function badgeCount(entry: MenuEntry, props: SidebarMenuProps): number {
  if (!entry.badge || !props.counts || !props.badges[entry.badge]) return 0;
  return props.counts[entry.badge];
}

/** One link; when the mini variant hides labels, a tooltip names it (aria-label always does). */
function Entry({ entry, props }: { entry: MenuEntry; props: SidebarMenuProps }) {
  const intl = useIntl();
  const { pathname } = useLocation();
  const label = intl.formatMessage({ id: entry.labelId });
  const count = badgeCount(entry, props);
  const name = count > 0 ? `${label} (${intl.formatMessage({ id: `menu.${entry.badge}Count` }, { count })})` : label;
  const Icon = entry.icon;
  const button = (
    <ListItemButton
      component={RouterLink}
      to={entry.to}
      selected={isCurrent(pathname, entry.to)}
      aria-label={name}
      onClick={props.onNavigate}
      sx={{ minHeight: 44, px: 2.5 }}
    >
      <ListItemIcon sx={{ minWidth: 0, mr: props.expanded ? 2 : 'auto', justifyContent: 'center' }}>
        <Badge badgeContent={count} color={entry.badge === 'rejected' ? 'warning' : 'error'} max={999}>
          <Icon />
        </Badge>
      </ListItemIcon>
      <ListItemText primary={label} sx={{ opacity: props.expanded ? 1 : 0, my: 0 }} />
    </ListItemButton>
  );
  return props.expanded ? button : <Tooltip title={name} placement="right">{button}</Tooltip>;
}

function UserEntry({ user, props }: { user: SessionUser; props: SidebarMenuProps }) {
  const intl = useIntl();
  const to = `/users/edit/${encodeURIComponent(user.userId)}?profile=1`;
  const name = intl.formatMessage({ id: 'shell.profileOf' }, { name: user.userName });
  const button = (
    <ListItemButton component={RouterLink} to={to} aria-label={name} onClick={props.onNavigate} sx={{ px: 2.5 }}>
      <ListItemIcon sx={{ minWidth: 0, mr: props.expanded ? 2 : 'auto', justifyContent: 'center' }}>
        <AccountCircleIcon />
      </ListItemIcon>
      <ListItemText
        primary={user.userName}
        secondary={intl.formatMessage({ id: `role.${user.role}` })}
        sx={{ opacity: props.expanded ? 1 : 0, my: 0 }}
      />
    </ListItemButton>
  );
  return props.expanded ? button : <Tooltip title={name} placement="right">{button}</Tooltip>;
}

/** Username, then the menus of spec §2 in their groups. */
export function SidebarMenu(props: SidebarMenuProps) {
  const intl = useIntl();
  return (
    <List component="nav" aria-label={intl.formatMessage({ id: 'shell.mainMenu' })} dense={false} sx={{ pt: 0 }}>
      <UserEntry user={props.user} props={props} />
      {props.groups.map((group) => (
        <Fragment key={group.id}>
          <Divider />
          {group.labelId && props.expanded && (
            <ListSubheader sx={{ lineHeight: '32px', bgcolor: 'inherit' }}>{intl.formatMessage({ id: group.labelId })}</ListSubheader>
          )}
          {group.items.map((entry) => (
            <Entry key={entry.id} entry={entry} props={props} />
          ))}
        </Fragment>
      ))}
    </List>
  );
}
