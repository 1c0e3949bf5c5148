import { useMemo, useState } from 'react';
import { Outlet } from 'react-router';
import { Box, Toolbar, useMediaQuery } from '@mui/material';
import { usePreferences, useSessionUser } from '../../components';
import { WIDE_MEDIA_QUERY } from '../../lib/constants';
import type { SessionUser } from '../../lib/session';
import { UnsentBanner } from '../offline';
import { ContactDialog } from './ContactDialog';
import { Footer } from './Footer';
import { menuFor, visibleBadges } from './menu';
import { Sidebar } from './Sidebar';
import { SidebarMenu } from './SidebarMenu';
import { TopBar } from './TopBar';
import { TrainingBanner } from './TrainingBanner';
import { usePendingStats } from './usePendingStats';

function SignedInChrome({ user, wide }: { user: SessionUser; wide: boolean }) {
  const { lang, mode } = usePreferences();
  const [open, setOpen] = useState(false); // spec §9: collapsed by default
  const [contactOpen, setContactOpen] = useState(false);
  const groups = useMemo(() => menuFor(user, lang), [user, lang]);
  const badges = useMemo(() => visibleBadges(user), [user]);
  const counts = usePendingStats(user, mode, badges.pending || badges.rejected);
  // Narrow screens: a chosen item closes the drawer, like a click on the content does.
  const onNavigate = () => {
    if (!wide) setOpen(false);
  };
  return (
    <>
      <TopBar sidebarOpen={open} onToggleSidebar={() => setOpen((v) => !v)} onContact={() => setContactOpen(true)} />
      <Sidebar open={open} wide={wide} onClose={() => setOpen(false)}>
        <SidebarMenu user={user} groups={groups} expanded={open || !wide} counts={counts} badges={badges} onNavigate={onNavigate} />
      </Sidebar>
      <ContactDialog open={contactOpen} onClose={() => setContactOpen(false)} />
    </>
  );
}

/** Page frame: top bar and sidebar when signed in (spec §2), banner, content, footer always. */
export function Shell() {
  const user = useSessionUser();
  const wide = useMediaQuery(WIDE_MEDIA_QUERY, { noSsr: true });
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      {user && <SignedInChrome user={user} wide={wide} />}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        {user && <Toolbar />}
        <TrainingBanner />
        {user && <UnsentBanner />}
        <Box component="main" id="main" sx={{ flexGrow: 1, p: { xs: 1.5, sm: 3 } }}>
          <Outlet />
        </Box>
        <Footer />
      </Box>
    </Box>
  );
}
