// The dashboard's map (product.md §2 Home): providers by type and open jobs with coordinates, one
// legend button per group that takes it off the map and puts it back, and an info window with
// the name and address ('Upload Missing' without one), asked when it opens. The markers come
// one by one, or as the server's clusters when there are too many (then asked again for each
// view): src/lib/http/geoStats.ts.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import CircleIcon from '@mui/icons-material/Circle';
import PlaceIcon from '@mui/icons-material/Place';
import { useIntl } from 'react-intl';
import {
  DEFAULT_ZOOM,
  FALLBACK_CENTER,
  JOB_MARKER_COLOR,
  MapView,
  PROVIDER_TYPE_COLORS,
  type CountedCluster,
  type MapPoint,
  type MapViewport,
  type PointGroup,
} from '../../components/map';
import {
  fetchGeoPlaces,
  fetchGeoView,
  JOB_GROUP,
  type GeoMarkers,
  type JobPlace,
  type MarkerCluster,
  type MarkerPoint,
  type ProviderPlace,
} from '../../lib/http';
import { useSay } from '../../lib/session';

/** Marker groups (product.md §2): the provider types (sp_type 1-4) in their colours, jobs a pin. */
export const MAP_GROUPS = [
  { id: 'social', spType: 1, color: PROVIDER_TYPE_COLORS[1], symbol: 'circle' },
  { id: 'economic', spType: 2, color: PROVIDER_TYPE_COLORS[2], symbol: 'circle' },
  { id: 'legal', spType: 3, color: PROVIDER_TYPE_COLORS[3], symbol: 'circle' },
  { id: 'education', spType: 4, color: PROVIDER_TYPE_COLORS[4], symbol: 'circle' },
  { id: 'jobs', spType: null, color: JOB_MARKER_COLOR, symbol: 'pin' },
] as const;

type GroupId = (typeof MAP_GROUPS)[number]['id'];

/** The server's code of a group (src/lib/http/geoStats.ts): a provider's sp_type, 0 for jobs. */
const codeOf = (group: (typeof MAP_GROUPS)[number]): number => group.spType ?? JOB_GROUP;

/** The answer's points split into the shown groups. */
function groupsOf(points: readonly MarkerPoint[], hidden: ReadonlySet<GroupId>): PointGroup[] {
  return MAP_GROUPS.filter((g) => !hidden.has(g.id)).map((group) => {
    const code = codeOf(group);
    return {
      id: group.id,
      color: group.color,
      symbol: group.symbol,
      points: points.filter((p) => p[3] === code).map(([id, lng, lat]): MapPoint => ({ id, lng, lat })),
    };
  });
}

/** The server's clusters counting the shown groups only; a cluster of hidden groups goes. */
function clustersOf(clusters: readonly MarkerCluster[], hidden: ReadonlySet<GroupId>): CountedCluster[] {
  const shown = MAP_GROUPS.filter((g) => !hidden.has(g.id)).map(codeOf);
  return clusters
    .map(([lng, lat, ...counts]) => ({ lng, lat, count: shown.reduce((sum, code) => sum + (counts[code] ?? 0), 0) }))
    .filter((c) => c.count > 0);
}

/** The view's markers when the whole map came as clusters: asked again after every move, the
 * newest answer wins; a failure keeps what is shown (and is only logged, product.md §2). */
function useViewMarkers(clustered: boolean) {
  const [answer, setAnswer] = useState<GeoMarkers | null>(null);
  const asked = useRef(0);
  const onViewChange = useCallback((view: MapViewport) => {
    const n = ++asked.current;
    fetchGeoView(view).then(
      (markers) => n === asked.current && setAnswer(markers),
      (error: unknown) => console.warn('Map view not loaded:', error),
    );
  }, []);
  return clustered ? { answer, onViewChange } : { answer: null, onViewChange: undefined };
}

/** Name and address of a marker, asked when its info window opens. */
function usePlace(point: MapPoint, job: boolean) {
  const [place, setPlace] = useState<{ id: string; found: ProviderPlace | JobPlace | null; failed: boolean } | null>(null);
  useEffect(() => {
    let current = true;
    fetchGeoPlaces(job ? { jobs: [point.id] } : { providers: [point.id] }).then(
      (places) => current && setPlace({ id: point.id, found: (job ? places.jbLatlangs[0] : places.latlangs[0]) ?? null, failed: false }),
      (error: unknown) => {
        console.warn('Marker name and address not loaded:', error);
        if (current) setPlace({ id: point.id, found: null, failed: true });
      },
    );
    return () => {
      current = false;
    };
  }, [point.id, job]);
  return place?.id === point.id ? place : null;
}

/** Names of the points listed for a keyboard or a screen reader (at most 100 of each kind per
 * call; the list shows at most 50 markers). */
async function pointNames(points: readonly { point: MapPoint; group: PointGroup }[]): Promise<Record<string, string>> {
  const ids = (jobs: boolean) => points.filter((p) => (p.group.id === 'jobs') === jobs).map((p) => p.point.id);
  const places = await fetchGeoPlaces({ providers: ids(false), jobs: ids(true) });
  return Object.fromEntries([...places.latlangs.map((p) => [p.id, p.name]), ...places.jbLatlangs.map((p) => [p.id, p.title])]);
}

function InfoWindow({ point, group }: { point: MapPoint; group: PointGroup }) {
  const place = usePlace(point, group.id === 'jobs');
  const say = useSay();
  const name = place?.found && ('name' in place.found ? place.found.name : place.found.title);
  const address = place?.found?.address?.trim();
  return (
    <>
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }}>
        {say(`home.map.group.${group.id}`)}
      </Typography>
      {!place && (
        <Typography variant="body2" component="p" role="status">
          {say('home.map.placeLoading')}
        </Typography>
      )}
      {place && !place.found && (
        <Typography variant="body2" component="p" role="status" data-testid="map-popup-missing">
          {say(place.failed ? 'home.map.placeFailed' : 'home.map.placeGone')}
        </Typography>
      )}
      {place?.found && (
        <>
          <Typography variant="subtitle2" component="p" data-testid="map-popup-name">
            {name}
          </Typography>
          <Typography variant="body2" component="p" data-testid="map-popup-address">
            {address || say('home.map.uploadMissing')}
          </Typography>
        </>
      )}
    </>
  );
}

/** Memoised: a refresh bringing the same markers keeps `geo` (useDashboard), and the map is not drawn again. */
export const DashboardMap = memo(function DashboardMap({ geo }: { geo: GeoMarkers }) {
  const intl = useIntl();
  const say = useSay();
  const [hidden, setHidden] = useState<ReadonlySet<GroupId>>(new Set());
  const view = useViewMarkers(Boolean(geo.clusters));
  const shownAnswer = useMemo(() => view.answer ?? geo, [view.answer, geo]);
  const groups = useMemo(() => (shownAnswer.points ? groupsOf(shownAnswer.points, hidden) : undefined), [shownAnswer, hidden]);
  const clusters = useMemo(() => (shownAnswer.clusters ? clustersOf(shownAnswer.clusters, hidden) : undefined), [shownAnswer, hidden]);
  const counts = geo.counts ?? [];
  const countOf = (group: (typeof MAP_GROUPS)[number]) => counts[codeOf(group)] ?? 0;
  const services = MAP_GROUPS.filter((g) => g.spType !== null).reduce((sum, g) => sum + countOf(g), 0);
  const toggle = (id: GroupId) =>
    setHidden((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <Box data-testid="dashboard-map">
      <Typography component="h2" variant="h6" data-testid="map-header">
        {say('home.map.header', { services, jobs: counts[JOB_GROUP] ?? 0 })}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {say('home.map.legendHint')}
      </Typography>
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }} role="group" aria-label={say('home.map.legend')}>
        {MAP_GROUPS.map((group) => {
          const { id, color, symbol } = group;
          const on = !hidden.has(id);
          const Icon = symbol === 'pin' ? PlaceIcon : CircleIcon;
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
              {say(`home.map.group.${id}`)} ({intl.formatNumber(countOf(group))})
            </Button>
          );
        })}
      </Stack>
      <MapView
        groups={groups}
        clusters={clusters}
        onViewChange={view.onViewChange}
        renderPointPopup={(point, group) => <InfoWindow point={point} group={group} />}
        pointNames={pointNames}
        groupName={(group) => say(`home.map.group.${group.id}`)}
        center={geo.center ?? FALLBACK_CENTER}
        zoom={DEFAULT_ZOOM}
        height="min(60vh, 480px)"
        // Below the figures and charts (three screens down on a phone): it starts when scrolled to.
        whenShown
        ariaLabel={say('home.map.title')}
      />
    </Box>
  );
});
