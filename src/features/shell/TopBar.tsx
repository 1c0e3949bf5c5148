import { Link as RouterLink } from 'react-router';
import { AppBar, Box, Button, FormControlLabel, IconButton, Switch, Toolbar, Tooltip, useMediaQuery } from '@mui/material';
import type { Theme } from '@mui/material/styles';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import CloudDoneIcon from '@mui/icons-material/CloudDone';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import HomeIcon from '@mui/icons-material/Home';
import LockIcon from '@mui/icons-material/Lock';
import LogoutIcon from '@mui/icons-material/Logout';
import MailIcon from '@mui/icons-material/Mail';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import { LanguageSelect } from '../../components';
import { lockNow } from '../../lib/vault';
import { NetworkIndicator, UploadOnReconnect, useGuardedLogout } from '../offline';
import { SIDEBAR_ID } from './Sidebar';
import { TopBarMenu } from './TopBarMenu';
import { useShellActions, type ShellActions } from './useShellActions';
import { useSay } from '../../lib/session';

interface TopBarProps {
  sidebarOpen: boolean;
  onToggleSidebar: () => void;
  onContact: () => void;
}

function InlineActions({ actions, onContact }: { actions: ShellActions; onContact: () => void }) {
  const say = useSay();
  const fullscreenLabel = say(actions.fullscreen.active ? 'shell.fullscreenExit' : 'shell.fullscreenEnter');
  return (
    <>
      <Button color="inherit" startIcon={<MailIcon />} onClick={onContact}>
        {say('shell.contactUs')}
      </Button>
      {actions.fullscreen.supported && (
        <Tooltip title={fullscreenLabel}>
          <IconButton color="inherit" aria-label={fullscreenLabel} onClick={actions.fullscreen.toggle}>
            {actions.fullscreen.active ? <FullscreenExitIcon /> : <FullscreenIcon />}
          </IconButton>
        </Tooltip>
      )}
      {actions.offlineSwitch && (
        <FormControlLabel
          control={<Switch checked={actions.offline} onChange={actions.toggleOffline} color="default" />}
          label={say('shell.offlineMode')}
          sx={{ mx: 0.5 }}
        />
      )}
      <FormControlLabel
        control={<Switch checked={actions.dark} onChange={actions.toggleTheme} color="default" />}
        label={say('shell.darkTheme')}
        sx={{ mx: 0.5 }}
      />
      <LanguageSelect />
    </>
  );
}

/** The offline switch on a phone: one tap, in the bar itself, its state drawn in its thumb (a
 * cloud, crossed out when offline); its name is the same as on the desktop's labelled switch. */
function PhoneOfflineSwitch({ actions }: { actions: ShellActions }) {
  const say = useSay();
  const label = say('shell.offlineMode');
  const thumb = (Icon: typeof CloudOffIcon) => (
    <Box
      component="span"
      sx={{
        width: 20,
        height: 20,
        borderRadius: '50%',
        bgcolor: '#fff',
        color: 'primary.dark',
        display: 'grid',
        placeItems: 'center',
        boxShadow: 1,
      }}
    >
      <Icon sx={{ fontSize: 14 }} />
    </Box>
  );
  return (
    <Tooltip title={label}>
      <Switch
        checked={actions.offline}
        onChange={actions.toggleOffline}
        color="default"
        icon={thumb(CloudDoneIcon)}
        checkedIcon={thumb(CloudOffIcon)}
        slotProps={{ input: { 'aria-label': label } }}
        data-testid="phone-offline-switch"
      />
    </Tooltip>
  );
}

/** product.md §2 top bar; shown only to a signed-in user (the shell decides). */
export function TopBar({ sidebarOpen, onToggleSidebar, onContact }: TopBarProps) {
  const say = useSay();
  const guardedLogout = useGuardedLogout();
  const actions = useShellActions(guardedLogout.request);
  const roomy = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  return (
    <AppBar position="fixed" sx={(theme) => ({ zIndex: theme.zIndex.drawer + 1 })}>
      <Toolbar sx={{ gap: 0.5, px: { xs: 1, sm: 2 } }}>
        <IconButton
          color="inherit"
          edge="start"
          aria-label={say(sidebarOpen ? 'shell.closeSidebar' : 'shell.openSidebar')}
          aria-controls={SIDEBAR_ID}
          aria-expanded={sidebarOpen}
          onClick={onToggleSidebar}
        >
          {sidebarOpen ? <MenuOpenIcon /> : <MenuIcon />}
        </IconButton>
        <Button
          color="inherit"
          component={RouterLink}
          to="/"
          startIcon={<HomeIcon />}
          aria-label={say('shell.homeLink')}
          sx={{ fontWeight: 700, fontSize: '1.1rem' }}
        >
          {say('app.shortName')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <NetworkIndicator />
        {!roomy && actions.offlineSwitch && <PhoneOfflineSwitch actions={actions} />}
        {roomy ? <InlineActions actions={actions} onContact={onContact} /> : <TopBarMenu actions={actions} onContact={onContact} />}
        {/* On a phone the lock is in the overflow menu: beside the offline switch it was hit by mistake. */}
        {roomy && (
          <Tooltip title={say('lock.lockNow')}>
            <IconButton color="inherit" aria-label={say('lock.lockNow')} onClick={lockNow}>
              <LockIcon />
            </IconButton>
          </Tooltip>
        )}
        {!actions.offline && (
          <Tooltip title={say('shell.logout')}>
            <IconButton color="inherit" aria-label={say('shell.logout')} onClick={actions.logout} edge="end">
              <LogoutIcon />
            </IconButton>
          </Tooltip>
        )}
      </Toolbar>
      {guardedLogout.dialog}
      <UploadOnReconnect />
    </AppBar>
  );
}
