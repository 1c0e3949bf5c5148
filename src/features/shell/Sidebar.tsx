import { Box, Drawer, Toolbar } from '@mui/material';
import type { CSSObject, Theme } from '@mui/material/styles';
import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { whenIdle } from '../../lib/util';

export const SIDEBAR_ID = 'app-sidebar';
const DRAWER_WIDTH = 264;

function paperWidth(theme: Theme, open: boolean): CSSObject {
  return {
    width: open ? DRAWER_WIDTH : `calc(${theme.spacing(7)} + 1px)`,
    overflowX: 'hidden',
    transition: theme.transitions.create('width', {
      easing: theme.transitions.easing.sharp,
      duration: open ? theme.transitions.duration.enteringScreen : theme.transitions.duration.leavingScreen,
    }),
  };
}

interface SidebarProps {
  open: boolean;
  wide: boolean;
  onClose: () => void;
  children: ReactNode;
}

/**
 * Above 991 px a permanent mini drawer (icons when collapsed, labels when expanded); at 991 px
 * and below a temporary drawer over the content, closed by a click outside it (product.md §2, §9).
 */
/** The longest the closed phone menu waits for the page to be idle before it is drawn. */
const MENU_MOUNT_MAX_WAIT_MS = 3_000;

/** True once the closed menu may be drawn (kept mounted, hidden): at the page's first idle
 * moment, in slices, or at once when it opens. The first screen is drawn without it (ADR-0035). */
function useMenuMounted(open: boolean): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => startTransition(() => setIdle(true)), MENU_MOUNT_MAX_WAIT_MS), []);
  return idle || open;
}

export function Sidebar({ open, wide, onClose, children }: SidebarProps) {
  const menuMounted = useMenuMounted(open);
  if (!wide) {
    return (
      <Drawer
        id={SIDEBAR_ID}
        variant="temporary"
        open={open}
        onClose={onClose}
        ModalProps={{ keepMounted: menuMounted }}
        slotProps={{ paper: { sx: { width: DRAWER_WIDTH, maxWidth: '85vw' } } }}
      >
        {/* The top bar stays above the drawer so its toggle can close it; keep clear of it. */}
        <Toolbar aria-hidden />
        {children}
      </Drawer>
    );
  }
  return (
    <Drawer
      id={SIDEBAR_ID}
      variant="permanent"
      open={open}
      sx={(theme) => ({ flexShrink: 0, whiteSpace: 'nowrap', ...paperWidth(theme, open), '& .MuiDrawer-paper': paperWidth(theme, open) })}
    >
      <Toolbar aria-hidden />
      <Box sx={{ overflowY: 'auto', overflowX: 'hidden' }}>{children}</Box>
    </Drawer>
  );
}
