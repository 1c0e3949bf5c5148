import { Fragment, type ReactElement } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { Badge, Divider, List, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Tooltip } from '@mui/material';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import { VisuallyHidden } from '../../components';
import { preloadScreen } from '../../lib/util';
import { type SessionUser, useSay } from '../../lib/session';
import type { MenuEntry, MenuGroup } from './menu';
import type { PendingCounts } from './usePendingStats';
import { userPaths } from '../users/paths';

/** MUI's warning orange, and the dark theme's light red, are below the WCAG AA contrast under
 * white text: the badges take the lighter orange with dark text, and the darker red. */
const BADGE_CONTRAST_SX = {
  '& .MuiBadge-colorWarning': { bgcolor: 'warning.light', color: 'rgba(0, 0, 0, 0.87)' },
  '& .MuiBadge-colorError': { bgcolor: 'error.dark', color: '#fff' },
} as const;

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

/** The mini variant hides labels: a tooltip shows the name. It only describes the link
 * (`describeChild`), so the link's name still comes from its own text, as axe's
 * label-content-name-mismatch rule (and speech input users) expect. */
function MiniTooltip({ title, expanded, children }: { title: string; expanded: boolean; children: ReactElement }) {
  if (expanded) return children;
  return (
    <Tooltip title={title} placement="right" describeChild>
      {children}
    </Tooltip>
  );
}

/** One link. Its accessible name is its content: the label and, when a badge shows a count, the
 * count in words ("Verify Services (3 pending)"); the badge's bare number is hidden from
 * assistive technology. */
function Entry({ entry, props }: { entry: MenuEntry; props: SidebarMenuProps }) {
  const say = useSay();
  const { pathname } = useLocation();
  const label = say(entry.labelId);
  const count = badgeCount(entry, props);
  const countText = count > 0 ? ` (${say(`menu.${entry.badge}Count`, { count })})` : '';
  const Icon = entry.icon;
  return (
    <MiniTooltip title={label + countText} expanded={props.expanded}>
      <ListItemButton
        component={RouterLink}
        to={entry.to}
        selected={isCurrent(pathname, entry.to)}
        onClick={props.onNavigate}
        onPointerEnter={() => preloadScreen(entry.to)}
        onFocus={() => preloadScreen(entry.to)}
        sx={{ minHeight: 44, px: 2.5 }}
      >
        <ListItemIcon sx={{ minWidth: 0, mr: props.expanded ? 2 : 'auto', justifyContent: 'center' }}>
          <Badge
            badgeContent={count}
            color={entry.badge === 'rejected' ? 'warning' : 'error'}
            max={999}
            slotProps={{ badge: { 'aria-hidden': true } }}
            sx={BADGE_CONTRAST_SX}
          >
            <Icon />
          </Badge>
        </ListItemIcon>
        <ListItemText
          primary={
            <>
              {label}
              {countText && <VisuallyHidden>{countText}</VisuallyHidden>}
            </>
          }
          sx={{ opacity: props.expanded ? 1 : 0, my: 0 }}
        />
      </ListItemButton>
    </MiniTooltip>
  );
}

/** The signed-in user's own page. On screen: name and role; to assistive technology:
 * "My profile: name role". */
function UserEntry({ user, props }: { user: SessionUser; props: SidebarMenuProps }) {
  const say = useSay();
  const to = userPaths.profile(user.userId);
  const role = say(`role.${user.role}`);
  return (
    <MiniTooltip title={say('shell.profileOf', { name: user.userName })} expanded={props.expanded}>
      <ListItemButton component={RouterLink} to={to} onClick={props.onNavigate} sx={{ px: 2.5 }}>
        <ListItemIcon sx={{ minWidth: 0, mr: props.expanded ? 2 : 'auto', justifyContent: 'center' }}>
          <AccountCircleIcon />
        </ListItemIcon>
        <ListItemText
          primary={
            <>
              <VisuallyHidden>{say('shell.myProfile')} </VisuallyHidden>
              {user.userName}
            </>
          }
          secondary={role}
          sx={{ opacity: props.expanded ? 1 : 0, my: 0 }}
        />
      </ListItemButton>
    </MiniTooltip>
  );
}

/** Username, then the menus of product.md §2 in their groups. */
export function SidebarMenu(props: SidebarMenuProps) {
  const say = useSay();
  return (
    <List component="nav" aria-label={say('shell.mainMenu')} dense={false} sx={{ pt: 0 }}>
      <UserEntry user={props.user} props={props} />
      {props.groups.map((group) => (
        <Fragment key={group.id}>
          <Divider />
          {group.labelId && props.expanded && (
            <ListSubheader component="div" sx={{ lineHeight: '32px', bgcolor: 'inherit' }}>
              {say(group.labelId)}
            </ListSubheader>
          )}
          {group.items.map((entry) => (
            <Entry key={entry.id} entry={entry} props={props} />
          ))}
        </Fragment>
      ))}
    </List>
  );
}
