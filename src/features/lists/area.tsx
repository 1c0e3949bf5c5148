// The lookup-list administration (product.md §2 route table: lists, organisations): two areas
// of one screen each, the organisations being one list of the same screen. Server screens: with
// no connection they say so under their title.
import CorporateFareIcon from '@mui/icons-material/CorporateFare';
import ListAltIcon from '@mui/icons-material/ListAlt';
import { defineArea } from '../../components/area';
import { OnlineOnly } from '../../components/OnlineOnly';
import { LISTS_PATH, ORGANISATIONS_PATH } from './paths';

export const organisationsArea = defineArea({
  id: 'organisations',
  order: 20,
  base: ORGANISATIONS_PATH,
  guard: 'route.organisations',
  load: () => import('./index'),
  screens: [
    {
      render: (s) => (
        <OnlineOnly titleId="screens.organisations">
          <s.ListsPage only={s.ORGANISATIONS} />
        </OnlineOnly>
      ),
    },
  ],
  menu: [
    {
      id: 'organisations',
      group: 'admin',
      labelId: 'menu.organisations',
      to: ORGANISATIONS_PATH,
      icon: CorporateFareIcon,
      permission: 'menu.organisations',
    },
  ],
});

export const listsArea = defineArea({
  id: 'lists',
  order: 30,
  base: LISTS_PATH,
  guard: 'route.lists',
  load: () => import('./index'),
  screens: [
    {
      render: (s) => (
        <OnlineOnly titleId="screens.lists">
          <s.ListsPage />
        </OnlineOnly>
      ),
    },
  ],
  menu: [
    { id: 'lists', group: 'admin', labelId: 'menu.listManagement', to: LISTS_PATH, icon: ListAltIcon, permission: 'menu.listManagement' },
  ],
});
