// The map's markers (GET /stats/geo), bounded and cheap (docs/performance.md "Dashboard calls
// together"): every live provider and open job with coordinates is kept in memory, read once
// and then kept up to date from the server's change notifications by reading only the rows
// changed since (not dropped and read again). A request is answered from memory: the markers
// of its view one by one when there are at most `limit`, else clustered per grid cell of its
// zoom, counted per group (a few hundred cells whatever the number of markers).
import { job, serviceProvider } from '../../../schemas/index';
import type { Queryable } from '../../db/index';
import { ALL_TABLES, type ChangeHub } from '../sync/changes';
import { markerCount, markerRows } from './queries';
import type { GeoMarkers, MarkerCluster, MarkerPoint } from '../../../schemas/geo';

/** Marker groups, in the order of the counts: 0 an open job, 1-4 a provider's sp_type. */
export const MARKER_GROUPS = [0, 1, 2, 3, 4] as const;

/** A map view: its zoom and, optionally, its bounds in degrees (none: the whole map). */
export interface MapView {
  zoom: number;
  bounds?: { west: number; south: number; east: number; north: number };
}

/** A grid cell is about 64 screen pixels wide at the view's zoom (512-pixel tiles). */
export const cellDegrees = (zoom: number) => 45 / 2 ** zoom;

/** Tables whose changes move markers ('*': notifications were lost meanwhile: read all again). */
const GEO_TABLES = new Set([serviceProvider.table, job.table, ALL_TABLES]);

interface Cell {
  lng: number;
  lat: number;
  counts: number[];
}

export class MarkerIndex {
  private readonly markers = new Map<string, MarkerPoint>();
  /** Where the next read starts. */
  private since: string | null = null;
  /** The next read reads every marker (first read, notifications lost). */
  private full = true;
  /** A change was heard since the last read began. */
  private stale = true;
  private reading: Promise<void> | null = null;
  /** Bumped by every read that changed something: the whole map's answer is kept until then. */
  private version = 0;
  private wholeMap: { version: number; json: string } | null = null;

  constructor(
    private readonly db: Queryable,
    changes: ChangeHub,
    private readonly limit: number,
  ) {
    changes.subscribe(({ table }) => {
      if (!GEO_TABLES.has(table)) return;
      if (table === ALL_TABLES) this.full = true;
      this.stale = true;
    });
  }

  /** Reads every marker now, so that the first dashboard does not wait for it (a failure is
   * logged by the caller; the first request tries again). */
  warm(): Promise<void> {
    return this.fresh();
  }

  /** The markers as of now: reads what changed since the last read, one read at a time. */
  private async fresh(): Promise<void> {
    while (this.stale) {
      this.reading ??= this.read().finally(() => {
        this.reading = null;
      });
      await this.reading;
    }
  }

  private async read(): Promise<void> {
    this.stale = false;
    const full = this.full;
    this.full = false;
    const since = full ? null : this.since;
    try {
      const { rows, horizon } = await markerRows(this.db, since);
      if (full) this.markers.clear();
      for (const row of rows) {
        const key = `${row.table}:${row.id}`;
        if (row.shown && row.lat !== null && row.lng !== null) this.markers.set(key, [row.id, row.lng, row.lat, row.grp]);
        else this.markers.delete(key);
      }
      if (full || rows.length) this.version += 1;
      this.since = horizon;
      // Rows written with an old updatedAt escape the read of changed rows: read all again.
      if (!full && (await markerCount(this.db)) !== this.markers.size) {
        this.full = true;
        this.stale = true;
      }
    } catch (error) {
      // The next request tries again.
      this.stale = true;
      this.full ||= full;
      throw error;
    }
  }

  /** The whole map's answer as JSON, made again only after markers changed. */
  async wholeMapJson(zoom: number): Promise<string> {
    await this.fresh();
    if (this.wholeMap?.version !== this.version) this.wholeMap = { version: this.version, json: JSON.stringify(this.answer({ zoom })) };
    return this.wholeMap.json;
  }

  async view(view: MapView): Promise<GeoMarkers> {
    await this.fresh();
    return this.answer(view);
  }

  /** The view's markers, bounded; the whole map also counts them per group and gives their
   * average position. */
  private answer(view: MapView): GeoMarkers {
    const cells = this.cells(view);
    const counts = MARKER_GROUPS.map((g) => cells.reduce((sum, cell) => sum + (cell.counts[g] ?? 0), 0));
    const total = counts.reduce((a, b) => a + b, 0);
    const markers =
      total <= this.limit ? { points: this.points(view) } : { clusters: cells.map((c): MarkerCluster => [c.lng, c.lat, ...c.counts]) };
    if (view.bounds) return markers;
    let [lng, lat] = [0, 0];
    for (const cell of cells) {
      const share = cell.counts.reduce((a, b) => a + b, 0) / total;
      lng += cell.lng * share;
      lat += cell.lat * share;
    }
    return { counts, center: total ? { lng, lat } : null, ...markers };
  }

  private *inside(view: MapView): Generator<MarkerPoint> {
    const b = view.bounds;
    for (const marker of this.markers.values()) {
      if (!b || (marker[1] >= b.west && marker[1] <= b.east && marker[2] >= b.south && marker[2] <= b.north)) yield marker;
    }
  }

  private points(view: MapView): MarkerPoint[] {
    return [...this.inside(view)];
  }

  /** The view's markers per grid cell of its zoom, at their average position. */
  private cells(view: MapView): Cell[] {
    const size = cellDegrees(view.zoom);
    const sums = new Map<string, { lng: number; lat: number; counts: number[] }>();
    for (const [, lng, lat, group] of this.inside(view)) {
      const key = `${Math.floor(lng / size)}:${Math.floor(lat / size)}`;
      let cell = sums.get(key);
      if (!cell) sums.set(key, (cell = { lng: 0, lat: 0, counts: MARKER_GROUPS.map(() => 0) }));
      cell.lng += lng;
      cell.lat += lat;
      cell.counts[group] = (cell.counts[group] ?? 0) + 1;
    }
    return [...sums.values()].map((cell) => {
      const n = cell.counts.reduce((a, b) => a + b, 0);
      return { lng: cell.lng / n, lat: cell.lat / n, counts: cell.counts };
    });
  }
}
