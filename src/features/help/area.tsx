// The help (product.md §2: help, help/{lang}): open to anyone, signed in or not (no guard);
// '/help' opens it in the interface language.
import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import { defineArea } from '../../components/area';
import { HELP_PATH, helpPath } from './paths';

export const helpArea = defineArea({
  id: 'help',
  order: 110,
  base: HELP_PATH,
  guard: null,
  load: () => import('./index'),
  screens: [{ render: (s) => <s.HelpIndex /> }, { path: ':lang', render: (s) => <s.HelpPage /> }],
  menu: [{ id: 'help', group: 'more', labelId: 'menu.help', to: helpPath, icon: HelpOutlineIcon, permission: 'menu.help' }],
});
