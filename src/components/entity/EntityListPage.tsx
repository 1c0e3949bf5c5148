// The list screen of an area's screen that names only its list (src/components/area.ts,
// ADR-0050): the entity's grid under the screen's title, paged and sorted on the server
// (ADR-0024). A screen with more (a row click, an add button, filters of its own) is the
// feature's, drawn by its manifest's `render`.
import { Page } from '../Page';
import { useSay } from '../../lib/session';
import type { ListScreen } from './firstQuery';
import { ListGrid } from './ListGrid';

export interface EntityListPageProps {
  list: ListScreen;
  /** The key of the screen's title (public/assets/i18n). */
  titleId: string;
}

export function EntityListPage({ list, titleId }: EntityListPageProps) {
  const say = useSay();
  const title = say(titleId);
  return (
    <Page title={title}>
      <ListGrid list={list} ariaLabel={title} />
    </Page>
  );
}
