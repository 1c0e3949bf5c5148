// The dashboard's map (spec §2 Home): providers by type and open jobs with coordinates, one
// legend button per group that takes it off the map and puts it back, and an info window with
// the name and address ('Upload Missing' without one).
import { useMemo, useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import CircleIcon from '@mui/icons-material/Circle';
import PlaceIcon from '@mui/icons-material/Place';
import { useIntl } from 'react-intl';
import { MapView, type MapPoint, type PointGroup } from '../../components/map';
import type { GeoStats } from './dashboardData';

/** Marker groups and colours (spec §2): social blue, economic green, legal yellow, education
 * red (sp_type 1-4), jobs a purple pin. */
export const MAP_GROUPS = [
  { id: 'social', spType: 1, color: '#1976d2', symbol: 'circle' },
  { id: 'economic', spType: 2, color: '#2e7d32', symbol: 'circle' },
  { id: 'legal', spType: 3, color: '#f9a825', symbol: 'circle' },
  { id: 'education', spType: 4, color: '#d32f2f', symbol: 'circle' },
  { id: 'jobs', spType: null, color: '#7b1fa2', symbol: 'pin' },
] as const;

type GroupId = (typeof MAP_GROUPS)[number]['id'];

function groupsOf(geo: GeoStats): PointGroup[] {
  return MAP_GROUPS.map(({ id, spType, color, symbol }) => ({
    id,
    color,
    symbol,
    points:
      spType === null
        ? geo.jbLatlangs.map((j): MapPoint => ({ id: j.id, title: j.title, address: j.address, lat: j.lat, lng: j.lng }))
        : geo.latlangs.filter((p) => p.sp_type === spType).map((p): MapPoint => ({ id: p.id, title: p.name, address: p.address, lat: p.lat, lng: p.lng })),
  }));
}

function InfoWindow({ point, group }: { point: MapPoint; group: PointGroup }) {
  const intl = useIntl();
  return (
    <>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
        {intl.formatMessage({ id: `home.map.group.${group.id}` })}
      </Typography>
      <Typography variant="subtitle2" component="p">
        {point.title}
      </Typography>
      <Typography variant="body2" component="p" data-testid="map-popup-address">
        {point.address?.trim() ? point.address : intl.formatMessage({ id: 'home.map.uploadMissing' })}
      </Typography>
    </>
  );
}

export function DashboardMap({ geo }: { geo: GeoStats }) {
  const intl = useIntl();
  const all = useMemo(() => groupsOf(geo), [geo]);
  const [hidden, setHidden] = useState<ReadonlySet<GroupId>>(new Set());
  const shown = useMemo(() => all.filter((g) => !hidden.has(g.id as GroupId)), [all, hidden]);
  const toggle = (id: GroupId) =>
    setHidden((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <Box data-testid="dashboard-map">
      <Typography component="h2" variant="h6" data-testid="map-header">
        {intl.formatMessage({ id: 'home.map.header' }, { services: geo.latlangs.length, jobs: geo.jbLatlangs.length })}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {intl.formatMessage({ id: 'home.map.legendHint' })}
      </Typography>
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }} role="group" aria-label={intl.formatMessage({ id: 'home.map.legend' })}>
        {MAP_GROUPS.map(({ id, color, symbol }) => {
          const on = !hidden.has(id);
          const Icon = symbol === 'pin' ? PlaceIcon : CircleIcon;
          const count = all.find((g) => g.id === id)?.points.length ?? 0;
          return (
            <Button
              key={id}
              size="small"
              variant={on ? 'outlined' : 'text'}
              color="inherit"
              aria-pressed={on}
              data-testid={`legend-${id}`}
              onClick={() => toggle(id)}
              startIcon={<Icon sx={{ color, opacity: on ? 1 : 0.35 }} fontSize={symbol === 'pin' ? 'medium' : 'small'} />}
              sx={{ textTransform: 'none', textDecoration: on ? 'none' : 'line-through' }}
            >
              {intl.formatMessage({ id: `home.map.group.${id}` })} ({intl.formatNumber(count)})
            </Button>
          );
        })}
      </Stack>
      <MapView
        groups={shown}
        renderPointPopup={(point, group) => <InfoWindow point={point} group={group} />}
        height="min(60vh, 480px)"
        ariaLabel={intl.formatMessage({ id: 'home.map.title' })}
      />
    </Box>
  );
}
