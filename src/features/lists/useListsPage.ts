// The lists page's controller: the lists read from the server, the list chosen (in the address,
// `?list=`), the search, the item counts, and the whole-list saves (reorder, activate, edit) and
// additions, with a conflict when someone else changed the list meanwhile.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isAxiosError } from 'axios';
import { useIntl } from 'react-intl';
import { useSessionUser } from '../../components';
import { itemLabel, langOf, messageOf } from '../../components/entity';
import { notify } from '../../lib/ui';
import { can, useSay } from '../../lib/session';
import { addItem, fetchLists, fetchUsage, moved, saveItems, type Item, type ListRow, type NewItem, type Usage } from './listsApi';

/** The list a service type's `parent` names. */
const PARENT_LIST: Record<string, string> = { serviceType: 'category' };

/** The list with a screen of its own (menu "Organisations"), left out of List Management. */
export const ORGANISATIONS = 'organisation';

function useLists() {
  const [lists, setLists] = useState<ListRow[] | null>(null);
  const [error, setError] = useState<string>();
  const load = useCallback(() => {
    fetchLists().then(
      (rows) => {
        setLists(rows);
        setError(undefined);
      },
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, []);
  useEffect(load, [load]);
  const replace = (row: ListRow) => setLists((current) => current?.map((l) => (l.id === row.id ? row : l)) ?? null);
  return { lists, error, reload: load, replace };
}

function useUsage(list: ListRow | undefined, allowed: boolean): Usage | null {
  const [usage, setUsage] = useState<{ id: string; usage: Usage } | null>(null);
  const id = allowed ? list?.id : undefined;
  useEffect(() => {
    if (!id) return;
    let current = true;
    fetchUsage(id).then(
      (answer) => current && setUsage({ id, usage: answer }),
      (error: unknown) => console.warn('Item usage not loaded:', error),
    );
    return () => {
      current = false;
    };
    // A save changes the list's version: counts are read again with it.
  }, [id, list?.updatedAt]);
  return usage !== null && usage.id === id ? usage.usage : null;
}

/** The item dialog: open to add (no item) or to edit an item, or closed (null). */
type Editing = { item?: Item } | null;

/** The list's saves: a whole-list save (a 409 means someone else changed it: reload and say so),
 * and the dialog's save of one item, edited or added. */
function useListSaves(list: ListRow | undefined, editing: Editing, close: () => void, loaded: ReturnType<typeof useLists>) {
  const say = useSay();
  const lang = langOf(useIntl().locale);
  const [busy, setBusy] = useState(false);
  const [conflict, setConflict] = useState(false);
  const { replace, reload } = loaded;

  const save = async (items: Item[], success: string) => {
    if (!list) return;
    setBusy(true);
    setConflict(false);
    try {
      replace(await saveItems(list, items));
      notify.success(say('lists.saved'), success);
    } catch (failure) {
      if (isAxiosError(failure) && failure.response?.status === 409) {
        setConflict(true);
        reload();
      } else {
        notify.error(say('lists.saveFailed'), messageOf(failure));
      }
    } finally {
      setBusy(false);
    }
  };

  const saveDialog = async (values: NewItem & { active: boolean }) => {
    if (!list) return;
    const current = editing?.item;
    if (current) {
      const { active, ...labels } = values;
      const items = list.items.map((item) => (item.id === current.id ? { ...item, ...labels, active } : item));
      setBusy(true);
      try {
        replace(await saveItems(list, items));
        notify.success(say('lists.saved'), itemLabel({ ...current, ...labels }, lang));
        close();
      } finally {
        setBusy(false);
      }
    } else {
      const { active: _new, ...item } = values;
      replace(await addItem(list, item));
      notify.success(say('lists.added'), itemLabel({ id: 0, active: true, ...item }, lang));
      close();
    }
  };
  return { busy, conflict, setConflict, save, saveDialog };
}

/** `only`: one list on its own screen (the organisations), without the list choice. */
export function useListsPage(only?: string) {
  const say = useSay();
  const lang = langOf(useIntl().locale);
  const loaded = useLists();
  const { lists } = loaded;
  const editable = can(useSessionUser()?.role, 'lists.write');
  const [params, setParams] = useSearchParams();
  const key = only ?? params.get('list') ?? 'territory';
  const choices = lists?.filter((l) => l.key !== ORGANISATIONS);
  const list = only ? lists?.find((l) => l.key === only) : (choices?.find((l) => l.key === key) ?? choices?.[0]);
  const usage = useUsage(list, editable);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const saves = useListSaves(list, editing, () => setEditing(null), loaded);
  const sortedLists = useMemo(
    () => [...(choices ?? [])].sort((a, b) => say(`lists.name.${a.key}`).localeCompare(say(`lists.name.${b.key}`), lang)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `say` follows `lang`
    [lists, lang],
  );
  const parentList = list && PARENT_LIST[list.key] ? lists?.find((l) => l.key === PARENT_LIST[list.key]) : undefined;
  const query = search.trim().toLowerCase();
  const shown = (list?.items ?? [])
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => !query || `${item.fr} ${item.en} ${item.abbr ?? ''}`.toLowerCase().includes(query));
  const items = list?.items ?? [];

  return {
    lists,
    /** Why the lists could not be read. */
    error: loaded.error,
    reload: loaded.reload,
    list,
    /** The lists to choose from, by their name in the user's language. */
    sortedLists,
    editable,
    usage,
    search,
    setSearch,
    /** Reordering needs the whole list in view: not while searching. */
    searching: query !== '',
    /** The items that match the search, with their place in the whole list. */
    shown,
    busy: saves.busy,
    /** Someone else changed the list since it was read: it was read again. */
    conflict: saves.conflict,
    dismissConflict: () => saves.setConflict(false),
    choose: (next: string) => {
      setSearch('');
      saves.setConflict(false);
      setParams({ list: next }, { replace: true });
    },
    /** The name of an item's parent (a service type's category). */
    parentNameOf: (item: Item) =>
      item.parent && parentList
        ? itemLabel(parentList.items.find((p) => p.id === item.parent) ?? { id: item.parent, fr: '', en: '', active: true }, lang)
        : undefined,
    move: (index: number, step: -1 | 1) => saves.save(moved(items, index, step), itemLabel(items[index], lang)),
    toggle: (item: Item) =>
      saves.save(
        items.map((i) => (i.id === item.id ? { ...i, active: !i.active } : i)),
        itemLabel(item, lang),
      ),
    /** The item dialog: open to add (no item) or to edit one, or closed (null). */
    editing,
    openAdd: () => setEditing({}),
    openEdit: (item: Item) => setEditing({ item }),
    closeDialog: () => setEditing(null),
    saveDialog: saves.saveDialog,
    /** The items of a service type's category list, for the dialog's choice. */
    parents: parentList?.items,
  };
}

export type ListsPageController = ReturnType<typeof useListsPage>;
