// The page of bench/lists-floor.bench.ts: `?step=` chooses what draws the 25 rows. The rows are
// asked at once (as the app asks a list's first page with its address); each step's code is
// its own chunk, so a step loads only what it draws with.
import type { Row } from './rows';

/** The page's clock when the rows arrived and when the step's code was evaluated (for the bench). */
const marks = { answer: 0, module: 0 };
Object.assign(window, { __floor: marks });
const step = new URLSearchParams(location.search).get('step');
const rows: Promise<Row[]> = fetch('/rows.json')
  .then((response) => response.json())
  .finally(() => (marks.answer = performance.now()));
const steps: Record<string, () => Promise<{ draw: (rows: Promise<Row[]>) => void }>> = {
  table: () => import('./table'),
  'mui-table': () => import('./mui-table'),
  grid: () => import('./grid'),
  'grid-fixed': () => import('./grid'),
  'grid-shell': () => import('./shell'),
};
const load = steps[step ?? ''];
if (!load) throw new Error(`unknown step ${step}`);
void load().then((module) => {
  marks.module = performance.now();
  module.draw(rows);
});
