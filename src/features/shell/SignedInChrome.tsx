// The signed-in frame: top bar, sidebar and contact dialog. Its own chunk (ADR-0035): the login
// screen never loads it, nor the offline store the top bar's upload and network items need.
import { useMemo, useState } from 'react';
import { usePreferences } from '../../components';
import type { MenuItem } from '../../components/area';
import type { SessionUser } from '../../lib/session';
import { ContactDialog } from './ContactDialog';
import { menuFor, visibleBadges } from './menu';
import { Sidebar } from './Sidebar';
import { SidebarMenu } from './SidebarMenu';
import { TopBar } from './TopBar';
import { usePendingStats } from './usePendingStats';

export default function SignedInChrome({ user, wide, menu }: { user: SessionUser; wide: boolean; menu: readonly MenuItem[] }) {
  const { lang, mode } = usePreferences();
  const [open, setOpen] = useState(false); // product.md §9: collapsed by default
  const [contactOpen, setContactOpen] = useState(false);
  const groups = useMemo(() => menuFor(menu, user, lang), [menu, user, lang]);
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
