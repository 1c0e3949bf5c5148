// lists: every lookup list and its items, French and English labels, the active flag. Role 1
// adds, edits, reorders and deactivates (product.md §6 "Lists: role 1 only"); the route is open to
// every role (product.md §2), who read the lists here without the editing controls. Items are never deleted (server/plugins/lists): a
// deactivated item leaves the forms' choices and stays readable on the records that use it.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isAxiosError } from 'axios';
import {
  Alert,
  Box,
  Button,
  Chip,
  IconButton,
  InputAdornment,
  List,
  ListItem,
  MenuItem,
  Paper,
  Switch,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import EditIcon from '@mui/icons-material/Edit';
import SearchIcon from '@mui/icons-material/Search';
import { useIntl } from 'react-intl';
import { AmberChip, FullPageSpinner, Page, useSessionUser } from '../../components';
import { can } from '../../lib/permissions';
import { itemLabel, langOf, messageOf } from '../../components/entity';
import { formatNumber } from '../../lib/format';
import { notify } from '../../lib/notify';
import { ItemDialog } from './ItemDialog';
import { addItem, fetchLists, fetchUsage, moved, saveItems, type Item, type ListRow, type NewItem, type Usage } from './listsApi';

/** The list a service type's `parent` names. */
const PARENT_LIST: Record<string, string> = { serviceType: 'category' };

type Editing = { item?: Item } | null;

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

interface RowProps {
  item: Item;
  index: number;
  count: number;
  canMove: boolean;
  usage: Usage | null;
  parentName?: string;
  busy: boolean;
  editable: boolean;
  onMove: (step: -1 | 1) => void;
  onToggle: () => void;
  onEdit: () => void;
}

function ItemRow({ item, index, count, canMove, usage, parentName, busy, editable, onMove, onToggle, onEdit }: RowProps) {
  const intl = useIntl();
  const say = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const lang = langOf(intl.locale);
  const other = lang === 'fr' ? 'en' : 'fr';
  const label = itemLabel(item, lang);
  const uses = usage?.items[String(item.id)] ?? 0;
  return (
    <ListItem
      divider
      data-testid="list-item"
      data-item-id={item.id}
      sx={{ gap: 1, flexWrap: 'wrap', alignItems: 'center', opacity: item.active ? 1 : 0.85 }}
    >
      <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
        <Typography sx={{ overflowWrap: 'anywhere' }}>
          {label}
          {item.abbr && <Chip size="small" label={item.abbr} sx={{ ml: 1 }} />}
        </Typography>
        <Typography variant="body2" color="text.secondary" lang={other} sx={{ overflowWrap: 'anywhere' }}>
          {item[other]}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 0.5 }}>
          {parentName && (
            <Typography variant="caption" color="text.secondary">
              {say('lists.item.parentIs', { name: parentName })}
            </Typography>
          )}
          {usage?.known && (
            <Typography variant="caption" color="text.secondary" data-testid="item-usage">
              {say('lists.usedBy', { count: uses, formatted: formatNumber(uses, lang) })}
            </Typography>
          )}
          {!item.active && <AmberChip label={say('lists.inactive')} testId="item-inactive" />}
        </Box>
      </Box>
      {editable && (
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <Tooltip title={say('lists.moveUp')}>
            <span>
              <IconButton
                aria-label={say('lists.moveUpNamed', { name: label })}
                disabled={busy || !canMove || index === 0}
                onClick={() => onMove(-1)}
              >
                <ArrowUpwardIcon />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={say('lists.moveDown')}>
            <span>
              <IconButton
                aria-label={say('lists.moveDownNamed', { name: label })}
                disabled={busy || !canMove || index === count - 1}
                onClick={() => onMove(1)}
              >
                <ArrowDownwardIcon />
              </IconButton>
            </span>
          </Tooltip>
          <Tooltip title={say('lists.edit')}>
            <IconButton aria-label={say('lists.editNamed', { name: label })} disabled={busy} onClick={onEdit}>
              <EditIcon />
            </IconButton>
          </Tooltip>
          <Switch
            checked={item.active}
            disabled={busy}
            onChange={onToggle}
            slotProps={{ input: { 'aria-label': say(item.active ? 'lists.deactivateNamed' : 'lists.activateNamed', { name: label }) } }}
          />
        </Box>
      )}
    </ListItem>
  );
}

/** The list with a screen of its own (menu "Organisations"), left out of List Management. */
export const ORGANISATIONS = 'organisation';

/** `only`: one list on its own screen (the organisations), without the list choice. */
export function ListsPage({ only }: { only?: string } = {}) {
  const intl = useIntl();
  const say = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const lang = langOf(intl.locale);
  const { lists, error, reload, replace } = useLists();
  const editable = can(useSessionUser()?.role, 'lists.write');
  const [params, setParams] = useSearchParams();
  const key = only ?? params.get('list') ?? 'territory';
  const choices = lists?.filter((l) => l.key !== ORGANISATIONS);
  const list = only ? lists?.find((l) => l.key === only) : (choices?.find((l) => l.key === key) ?? choices?.[0]);
  const usage = useUsage(list, editable);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(null);
  const [busy, setBusy] = useState(false);
  const [conflict, setConflict] = useState(false);
  const sortedLists = useMemo(
    () => [...(choices ?? [])].sort((a, b) => say(`lists.name.${a.key}`).localeCompare(say(`lists.name.${b.key}`), lang)),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `say` follows `lang`
    [lists, lang],
  );
  const parentList = list && PARENT_LIST[list.key] ? lists?.find((l) => l.key === PARENT_LIST[list.key]) : undefined;

  if (error)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={reload}>
            {say('entityGrid.retry')}
          </Button>
        }
      >
        {error}
      </Alert>
    );
  if (!lists || !list) return <FullPageSpinner label={say('common.loading')} />;

  const query = search.trim().toLowerCase();
  const shown = list.items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => !query || `${item.fr} ${item.en} ${item.abbr ?? ''}`.toLowerCase().includes(query));

  /** A whole-list save; a 409 means someone else changed it: reload and say so. */
  const save = async (items: Item[], success: string) => {
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
    const current = editing?.item;
    if (current) {
      const { active, ...labels } = values;
      const items = list.items.map((item) => (item.id === current.id ? { ...item, ...labels, active } : item));
      setBusy(true);
      try {
        replace(await saveItems(list, items));
        notify.success(say('lists.saved'), itemLabel({ ...current, ...labels }, lang));
        setEditing(null);
      } finally {
        setBusy(false);
      }
    } else {
      const { active: _new, ...item } = values;
      const row = await addItem(list, item);
      replace(row);
      notify.success(say('lists.added'), itemLabel({ id: 0, active: true, ...item }, lang));
      setEditing(null);
    }
  };

  return (
    <Page
      title={say(only ? 'screens.organisations' : 'screens.lists')}
      actions={
        editable && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({})} disabled={busy}>
            {say('lists.item.add')}
          </Button>
        )
      }
    >
      {only && (
        <Typography variant="body2" color="text.secondary">
          {say('lists.organisationsIntro')}
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        {!only && (
          <TextField
            select
            label={say('lists.choose')}
            value={list.key}
            onChange={(event) => {
              setSearch('');
              setConflict(false);
              setParams({ list: event.target.value }, { replace: true });
            }}
            sx={{ minWidth: 260, flex: '1 1 260px' }}
          >
            {sortedLists.map((l) => (
              <MenuItem key={l.key} value={l.key}>
                {say(`lists.name.${l.key}`)} ({formatNumber(l.items.length, lang)})
              </MenuItem>
            ))}
          </TextField>
        )}
        <TextField
          label={say('lists.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          sx={{ flex: '1 1 220px' }}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      <Typography variant="body2" color="text.secondary">
        {say(editable ? 'lists.explain' : 'lists.readOnly')}
      </Typography>
      {conflict && (
        <Alert severity="warning" onClose={() => setConflict(false)}>
          {say('lists.conflict')}
        </Alert>
      )}
      {editable && query !== '' && (
        <Typography variant="body2" color="text.secondary">
          {say('lists.reorderNeedsAll')}
        </Typography>
      )}
      <Paper variant="outlined">
        <List aria-label={say(`lists.name.${list.key}`)} disablePadding>
          {shown.map(({ item, index }) => (
            <ItemRow
              key={item.id}
              item={item}
              index={index}
              count={list.items.length}
              canMove={query === ''}
              usage={usage}
              parentName={
                item.parent && parentList
                  ? itemLabel(parentList.items.find((p) => p.id === item.parent) ?? { id: item.parent, fr: '', en: '', active: true }, lang)
                  : undefined
              }
              busy={busy}
              editable={editable}
              onMove={(step) => void save(moved(list.items, index, step), itemLabel(item, lang))}
              onToggle={() =>
                void save(
                  list.items.map((i) => (i.id === item.id ? { ...i, active: !i.active } : i)),
                  itemLabel(item, lang),
                )
              }
              onEdit={() => setEditing({ item })}
            />
          ))}
          {shown.length === 0 && (
            <ListItem>
              <Typography color="text.secondary">{say('lists.noMatch')}</Typography>
            </ListItem>
          )}
        </List>
      </Paper>
      {editing && (
        <ItemDialog
          listKey={list.key}
          item={editing.item}
          others={list.items.filter((i) => i.id !== editing.item?.id)}
          parents={parentList?.items}
          onSave={saveDialog}
          onClose={() => setEditing(null)}
        />
      )}
    </Page>
  );
}
