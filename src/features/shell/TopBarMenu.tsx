import { useState } from 'react';
import { Divider, IconButton, ListItemIcon, ListItemText, ListSubheader, Menu, MenuItem } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import DarkModeIcon from '@mui/icons-material/DarkMode';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import LockIcon from '@mui/icons-material/Lock';
import MailIcon from '@mui/icons-material/Mail';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { lockNow } from '../../lib/vault';
import { LANGS, useSay } from '../../lib/session';
import type { ShellActions } from './useShellActions';

/** On narrow screens the top-bar items live in one overflow menu so the bar fits 360 px; the
 * offline switch stays in the bar (one tap), the lock goes last in the menu, away from it. */
export function TopBarMenu({ actions, onContact }: { actions: ShellActions; onContact: () => void }) {
  const say = useSay();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const run = (fn: () => void) => () => {
    close();
    fn();
  };
  const check = (on: boolean) => (on ? <CheckIcon fontSize="small" /> : null);

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={say('shell.moreActions')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <MoreVertIcon />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem onClick={run(onContact)}>
          <ListItemIcon>
            <MailIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{say('shell.contactUs')}</ListItemText>
        </MenuItem>
        {actions.fullscreen.supported && (
          <MenuItem onClick={run(actions.fullscreen.toggle)}>
            <ListItemIcon>
              {actions.fullscreen.active ? <FullscreenExitIcon fontSize="small" /> : <FullscreenIcon fontSize="small" />}
            </ListItemIcon>
            <ListItemText>{say(actions.fullscreen.active ? 'shell.fullscreenExit' : 'shell.fullscreenEnter')}</ListItemText>
          </MenuItem>
        )}
        <MenuItem role="menuitemcheckbox" aria-checked={actions.dark} onClick={run(actions.toggleTheme)}>
          <ListItemIcon>
            <DarkModeIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{say('shell.darkTheme')}</ListItemText>
          {check(actions.dark)}
        </MenuItem>
        <Divider />
        <ListSubheader role="presentation" sx={{ lineHeight: '32px' }}>
          {say('shell.language')}
        </ListSubheader>
        {LANGS.map((code) => (
          <MenuItem
            key={code}
            lang={code}
            role="menuitemradio"
            aria-checked={actions.lang === code}
            onClick={run(() => code !== actions.lang && actions.setLang(code))}
          >
            <ListItemText inset>{say(`lang.${code}`)}</ListItemText>
            {check(actions.lang === code)}
          </MenuItem>
        ))}
        <Divider />
        <MenuItem onClick={run(lockNow)}>
          <ListItemIcon>
            <LockIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{say('lock.lockNow')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
