// Choosing where a client is referred (ADR-0029): a verified service by category, service type
// and territory, in a list or on the map (the services' providers as markers), or an open job
// by sector and territory.
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  MenuItem,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import ListIcon from '@mui/icons-material/List';
import MapIcon from '@mui/icons-material/Map';
import type { LookupKey } from '../../../schemas/define';
import { countText, lookupLabel, lookupOptions, messageOf, useDisplayContext } from '../../components/entity';
import { useDebouncedValue } from '../../components/entity/useGridQuery';
import { MapView, providerTypeColor, type MapMarker } from '../../components/map';
import type { ReferralKind } from './kinds';
import { findJobs, findServices, providerPlaces, type ProviderPlace, type Row, type TargetFilter } from './referralApi';
import { useSay } from '../../lib/session';

const FILTERS: Record<ReferralKind, readonly (keyof TargetFilter & LookupKey)[]> = {
  service: ['category', 'serviceType', 'territory'],
  job: ['sector', 'territory'],
};

interface Found {
  rows: Row[];
  total: number;
  totalIsLowerBound?: boolean;
}

function useTargets(kind: ReferralKind, filter: TargetFilter) {
  const key = JSON.stringify([kind, filter]);
  const [loaded, setLoaded] = useState<{ key: string; found: Found | null; error: unknown } | null>(null);
  useEffect(() => {
    let current = true;
    (kind === 'service' ? findServices(filter) : findJobs(filter)).then(
      (page) =>
        current &&
        setLoaded({ key, found: { rows: page.rows, total: page.total, totalIsLowerBound: page.totalIsLowerBound }, error: null }),
      (error: unknown) => current && setLoaded({ key, found: null, error }),
    );
    return () => {
      current = false;
    };
    // `key` names kind and filter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return { found: loaded?.found ?? null, error: loaded?.error ?? null, loading: loaded?.key !== key };
}

/** The places of the providers of `services` (a page of at most 100), once per page shown. */
function usePlaces(enabled: boolean, services: readonly Row[] | undefined) {
  const ids = [...new Set((services ?? []).map((service) => String(service.sp_Id)))];
  const key = ids.join(',');
  const [places, setPlaces] = useState<{ key: string; places: ProviderPlace[] } | null>(null);
  useEffect(() => {
    if (!enabled || places?.key === key) return;
    let current = true;
    providerPlaces(ids).then(
      (found) => current && setPlaces({ key, places: found }),
      (error: unknown) => {
        console.warn('Provider places unavailable:', error);
        if (current) setPlaces({ key, places: [] });
      },
    );
    return () => {
      current = false;
    };
    // `key` names the ids.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, key]);
  return places?.key === key ? places.places : null;
}

interface ServiceMapProps {
  services: readonly Row[];
  places: readonly ProviderPlace[];
  onChoose: (row: Row) => void;
}

/** The services' providers as markers; a marker's popup lists its services, each to choose. */
function ServiceMap({ services, places, onChoose }: ServiceMapProps) {
  const say = useSay();
  const markers = useMemo<MapMarker[]>(() => {
    const byProvider = new Map<string, Row[]>();
    for (const service of services) byProvider.set(String(service.sp_Id), [...(byProvider.get(String(service.sp_Id)) ?? []), service]);
    return places
      .filter((place) => byProvider.has(place.id))
      .map((place) => ({
        id: place.id,
        lat: place.lat,
        lng: place.lng,
        color: providerTypeColor(place.sp_type),
        title: place.name,
        popup: (
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
            {place.address && <Typography variant="body2">{place.address}</Typography>}
            {(byProvider.get(place.id) ?? []).map((service) => (
              <Button
                key={String(service.sp_Detail_Id)}
                size="small"
                variant="outlined"
                onClick={() => onChoose(service)}
                data-testid="map-choose"
              >
                {say('referrals.new.chooseNamed', { name: String(service.name) })}
              </Button>
            ))}
          </Box>
        ),
      }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `say` changes with the language only, as the map does
  }, [services, places, onChoose]);
  const unplaced = services.filter((service) => !markers.some((marker) => marker.id === String(service.sp_Id))).length;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {say('referrals.new.mapHint', { count: String(markers.length) })}
      </Typography>
      <MapView markers={markers} height={360} ariaLabel={say('referrals.new.mapLabel')} />
      {unplaced > 0 && (
        <Typography variant="body2" color="text.secondary">
          {say('referrals.new.unplaced', { count: String(unplaced) })}
        </Typography>
      )}
    </Box>
  );
}

function TargetList({ kind, rows, onChoose }: { kind: ReferralKind; rows: readonly Row[]; onChoose: (row: Row) => void }) {
  const ctx = useDisplayContext();
  const secondary = (row: Row) =>
    kind === 'service'
      ? [lookupLabel(ctx.lists, 'category', row.category, ctx.lang), lookupLabel(ctx.lists, 'territory', row.territory, ctx.lang)]
          .filter(Boolean)
          .join(' · ')
      : [
          String(row.employer ?? ''),
          lookupLabel(ctx.lists, 'sector', row.sector, ctx.lang),
          lookupLabel(ctx.lists, 'territory', row.territory, ctx.lang),
        ]
          .filter(Boolean)
          .join(' · ');
  return (
    <List dense sx={{ maxHeight: 360, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }} data-testid="target-list">
      {rows.map((row) => (
        <ListItem key={String(row[kind === 'service' ? 'sp_Detail_Id' : 'jb_Id'])} disablePadding>
          <ListItemButton onClick={() => onChoose(row)}>
            <ListItemText primary={String(kind === 'service' ? row.name : row.title)} secondary={secondary(row)} />
          </ListItemButton>
        </ListItem>
      ))}
    </List>
  );
}

interface TargetChooserProps {
  kind: ReferralKind;
  onChoose: (row: Row) => void;
}

export function TargetChooser({ kind, onChoose }: TargetChooserProps) {
  const say = useSay();
  const ctx = useDisplayContext();
  const [filter, setFilter] = useState<TargetFilter>({});
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 400);
  const [view, setView] = useState<'list' | 'map'>('list');
  const { found, error, loading } = useTargets(kind, { ...filter, q: q.trim() || undefined });
  const places = usePlaces(kind === 'service' && view === 'map', found?.rows);
  const entityName = kind === 'service' ? 'service' : 'job';

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }} role="search">
        <TextField
          type="search"
          size="small"
          label={say(kind === 'service' ? 'referrals.new.searchService' : 'referrals.new.searchJob')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          sx={{ flex: { xs: '1 1 100%', sm: '1 1 220px' } }}
        />
        {FILTERS[kind].map((name) => (
          <TextField
            key={name}
            select
            size="small"
            label={say(`field.${entityName}.${name}`)}
            value={filter[name] ?? ''}
            onChange={(event) => setFilter({ ...filter, [name]: event.target.value === '' ? undefined : Number(event.target.value) })}
            sx={{ flex: { xs: '1 1 100%', sm: '0 1 200px' } }}
            data-testid={`target-filter-${name}`}
          >
            <MenuItem value="">
              <em>{say('entityGrid.all')}</em>
            </MenuItem>
            {lookupOptions(ctx.lists, name, ctx.lang).map((option) => (
              <MenuItem key={option.value} value={option.value}>
                {option.label}
              </MenuItem>
            ))}
          </TextField>
        ))}
        {kind === 'service' && (
          <ToggleButtonGroup
            exclusive
            size="small"
            value={view}
            onChange={(_event, next: 'list' | 'map' | null) => next && setView(next)}
            aria-label={say('referrals.new.view')}
          >
            <ToggleButton value="list" aria-label={say('referrals.new.viewList')}>
              <ListIcon fontSize="small" sx={{ mr: 0.5 }} />
              {say('referrals.new.viewList')}
            </ToggleButton>
            <ToggleButton value="map" aria-label={say('referrals.new.viewMap')}>
              <MapIcon fontSize="small" sx={{ mr: 0.5 }} />
              {say('referrals.new.viewMap')}
            </ToggleButton>
          </ToggleButtonGroup>
        )}
      </Box>
      {loading && <LinearProgress aria-label={say('common.loading')} />}
      {error !== null && <Alert severity="error">{say('referrals.new.searchFailed', { message: messageOf(error) })}</Alert>}
      {found && found.rows.length === 0 && !loading && (
        <Typography color="text.secondary">{say(kind === 'service' ? 'referrals.new.noService' : 'referrals.new.noJob')}</Typography>
      )}
      {found && found.total > found.rows.length && (
        <Typography variant="body2" color="text.secondary">
          {say('referrals.new.narrow', {
            shown: String(found.rows.length),
            total: countText(say, found.total, found.totalIsLowerBound),
          })}
        </Typography>
      )}
      {found &&
        found.rows.length > 0 &&
        (kind === 'service' && view === 'map' ? (
          places ? (
            <ServiceMap services={found.rows} places={places} onChoose={onChoose} />
          ) : (
            <LinearProgress aria-label={say('common.loading')} />
          )
        ) : (
          <TargetList kind={kind} rows={found.rows} onChoose={onChoose} />
        ))}
    </Box>
  );
}
