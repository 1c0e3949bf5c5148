// The clients area (product.md §2 route table: profiles, profiles/add; the client's page and its
// edit form): its screens behind route.profiles, the list's first page asked ahead, and the
// Clients menu. Reading needs profiles.read, saving profiles.write, like the API.
import PeopleIcon from '@mui/icons-material/People';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import { defineArea } from '../../components/area';
import { CLIENT_LIST } from './list';
import { ADD_CLIENT_PATH, CLIENTS_PATH } from './paths';

export const clientsArea = defineArea({
  id: 'clients',
  order: 80,
  base: CLIENTS_PATH,
  guard: 'route.profiles',
  load: () => import('./index'),
  screens: [
    { permission: 'profiles.read', list: CLIENT_LIST, render: (s) => <s.ClientListPage /> },
    { path: 'add', permission: 'profiles.write', render: (s) => <s.ClientAddPage /> },
    { path: 'edit/:profId', permission: 'profiles.write', render: (s) => <s.ClientEditPage /> },
    { path: ':profId', permission: 'profiles.read', render: (s) => <s.ClientPage /> },
  ],
  menu: [
    { id: 'clientList', group: 'clients', labelId: 'menu.clientList', to: CLIENTS_PATH, icon: PeopleIcon, permission: 'menu.clients' },
    {
      id: 'addClient',
      group: 'clients',
      labelId: 'menu.addClients',
      to: ADD_CLIENT_PATH,
      icon: PersonAddIcon,
      permission: 'menu.clients',
      when: (user) => user.location !== 0,
    },
  ],
});
