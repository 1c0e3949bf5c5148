// The page of bench/lists-floor.bench.ts: `?step=` chooses what draws the 25 rows. The rows are
// asked at once (as the app asks a list's first page with its address); each step's code is
// its own chunk, so a step loads only what it draws with.
import type { Row } from './rows';

const step = new URLSearchParams(location.search).get('step');
const rows: Promise<Row[]> = fetch('/rows.json').then((response) => response.json());
const steps: Record<string, () => Promise<{ draw: (rows: Promise<Row[]>) => void }>> = {
  table: () => import('./table'),
  'mui-table': () => import('./mui-table'),
  grid: () => import('./grid'),
  'grid-fixed': () => import('./grid'),
  'grid-shell': () => import('./shell'),
};
const load = steps[step ?? ''];
if (!load) throw new Error(`unknown step ${step}`);
void load().then((module) => module.draw(rows));
