// A list screen's grid over the data layer: its pages asked of the server while the store opens
// (useOpeningDataLayer), the first page drawn when it is in hand already, and a spinner until the
// data layer is there. The list screens' one way to wire EntityGrid to their list (ADR-0050).
import { FullPageSpinner } from '../FullPageSpinner';
import type { Observable } from 'rxjs';
import { useOpeningDataLayer, type ListResult } from '../../lib/data';
import { useSay } from '../../lib/session';
import { EntityGrid, type EntityGridProps } from './EntityGrid';
import type { ListScreen } from './firstQuery';

export type ListGridProps<R extends object> = Omit<EntityGridProps<R>, 'entity' | 'load' | 'firstPage'> & {
  list: ListScreen;
};

export function ListGrid<R extends object>({ list, columns = list.columns, ...grid }: ListGridProps<R>) {
  const say = useSay();
  const data = useOpeningDataLayer();
  if (!data) return <FullPageSpinner label={say('common.loading')} />;
  return (
    <EntityGrid<R>
      {...grid}
      entity={list.entity}
      // The list's rows are the caller's row type (`R`): the entity's documents.
      load={(query) => data.listPages(list.entity, query) as Observable<ListResult<R>>}
      firstPage={(query) => data.firstPage(list.entity, query) as ListResult<R> | undefined}
      columns={columns}
    />
  );
}
