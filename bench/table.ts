// docs/performance.md's results table, made from the files the benches write in bench/results/
// (bench/results.ts): `npm run bench:table` rewrites what lies between the two markers, and
// test/unit/bench-results.test.ts fails when the table and the files differ.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RESULTS_DIR, resultProblems, type BenchResult } from './results';

export const DOC = path.resolve(import.meta.dirname, '../docs/performance.md');
export const START = '<!-- bench-results:start -->';
export const END = '<!-- bench-results:end -->';

/** Every results file, by name. */
export function readResults(dir = RESULTS_DIR): { file: string; data: unknown }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ file: path.join(dir, name), data: JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as unknown }));
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
const oneMinute = (load: number[]) => (load[0] ?? Number.NaN).toFixed(1);

/** The table: one row per figure, the benches in file-name order, the figures as printed. */
export function renderTable(results: readonly BenchResult[]): string {
  const rows = ['| bench | figure | median | unit | commit | date (UTC) | load (1 min, start → end) |', '|---|---|---|---|---|---|---|'];
  for (const r of results) {
    const commit = `${r.commit.sha.slice(0, 8)}${r.commit.dirty ? ' (changed)' : ''}`;
    const date = r.date.slice(0, 16).replace('T', ' ');
    const load = `${oneMinute(r.load.start)} → ${oneMinute(r.load.end)}`;
    for (const f of r.figures)
      rows.push(`| ${cell(r.bench)} | ${cell(f.name)} | ${f.value} | ${cell(f.unit)} | ${commit} | ${date} | ${load} |`);
  }
  return rows.join('\n');
}

/** The document with the table between the markers replaced. */
export function withTable(doc: string, table: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/performance.md needs the markers ${START} and ${END}`);
  return `${doc.slice(0, start + START.length)}\n${table}\n${doc.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = readResults();
  const broken = results.map((r) => ({ file: r.file, problems: resultProblems(r.data) })).filter((r) => r.problems.length);
  if (broken.length) throw new Error(broken.map((r) => `${path.relative(process.cwd(), r.file)}: ${r.problems.join(', ')}`).join('\n'));
  const table = renderTable(results.map((r) => r.data as BenchResult));
  writeFileSync(DOC, withTable(readFileSync(DOC, 'utf8'), table));
  console.log(`docs/performance.md: ${table.split('\n').length - 2} figures`);
}
