// lists: every lookup list and its items, French and English labels, the active flag. Role 1
// adds, edits, reorders and deactivates (product.md §6 "Lists: role 1 only"); the route is open to
// every role (product.md §2), who read the lists here without the editing controls. Items are never deleted (server/plugins/lists): a
// deactivated item leaves the forms' choices and stays readable on the records that use it.
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
import { AmberChip, FullPageSpinner, Page } from '../../components';
import { itemLabel, langOf } from '../../components/entity';
import { formatNumber } from '../../lib/ui';
import { useSay } from '../../lib/session';
import { ItemDialog } from './ItemDialog';
import type { Item, Usage } from './listsApi';
import { useListsPage, type ListsPageController } from './useListsPage';

export { ORGANISATIONS } from './useListsPage';

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
  const say = useSay();
  const lang = langOf(useIntl().locale);
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

/** The list choice and the search. */
function ListFilters({ page, only }: { page: ListsPageController; only?: string }) {
  const say = useSay();
  const lang = langOf(useIntl().locale);
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
      {!only && (
        <TextField
          select
          label={say('lists.choose')}
          value={page.list?.key}
          onChange={(event) => page.choose(event.target.value)}
          sx={{ minWidth: 260, flex: '1 1 260px' }}
        >
          {page.sortedLists.map((l) => (
            <MenuItem key={l.key} value={l.key}>
              {say(`lists.name.${l.key}`)} ({formatNumber(l.items.length, lang)})
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        label={say('lists.search')}
        value={page.search}
        onChange={(event) => page.setSearch(event.target.value)}
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
  );
}

/** `only`: one list on its own screen (the organisations), without the list choice. */
export function ListsPage({ only }: { only?: string } = {}) {
  const say = useSay();
  const page = useListsPage(only);
  const { list, editable, busy, editing } = page;

  if (page.error)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={page.reload}>
            {say('entityGrid.retry')}
          </Button>
        }
      >
        {page.error}
      </Alert>
    );
  if (!page.lists || !list) return <FullPageSpinner label={say('common.loading')} />;

  return (
    <Page
      title={say(only ? 'screens.organisations' : 'screens.lists')}
      actions={
        editable && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={page.openAdd} disabled={busy}>
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
      <ListFilters page={page} only={only} />
      <Typography variant="body2" color="text.secondary">
        {say(editable ? 'lists.explain' : 'lists.readOnly')}
      </Typography>
      {page.conflict && (
        <Alert severity="warning" onClose={page.dismissConflict}>
          {say('lists.conflict')}
        </Alert>
      )}
      {editable && page.searching && (
        <Typography variant="body2" color="text.secondary">
          {say('lists.reorderNeedsAll')}
        </Typography>
      )}
      <Paper variant="outlined">
        <List aria-label={say(`lists.name.${list.key}`)} disablePadding>
          {page.shown.map(({ item, index }) => (
            <ItemRow
              key={item.id}
              item={item}
              index={index}
              count={list.items.length}
              canMove={!page.searching}
              usage={page.usage}
              parentName={page.parentNameOf(item)}
              busy={busy}
              editable={editable}
              onMove={(step) => void page.move(index, step)}
              onToggle={() => void page.toggle(item)}
              onEdit={() => page.openEdit(item)}
            />
          ))}
          {page.shown.length === 0 && (
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
          parents={page.parents}
          onSave={page.saveDialog}
          onClose={page.closeDialog}
        />
      )}
    </Page>
  );
}
