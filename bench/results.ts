// A bench's results as data (docs/performance.md "Results as data"): each bench's figure lines
// (`name: value unit`, the format every bench prints) are kept while it runs, and written at its
// end to bench/results/<name>.json with what they depend on: the machine, the load average at
// the start and the end, the commit (and whether the tree differed from it), the date and the
// BENCH_* settings. `npm run bench:table` makes docs/performance.md's table from those files.
//
// BENCH_RESULTS=off writes nothing (a profiling or exploratory run); BENCH_RESULTS=<dir> writes
// there instead of bench/results.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format } from 'node:util';

export const RESULTS_DIR = path.resolve(import.meta.dirname, 'results');

export interface Figure {
  /** As printed: `api.list_p99`, `unlock.home_ready_ms@4x`. */
  name: string;
  /** The median (or the ratio, the size, the score) the bench printed. */
  value: number;
  /** As printed after the value: `ms`, `req/s`, `x`; empty for a score or a count. */
  unit: string;
  /** The rest of the line (the runs, a comment), when there is one. */
  note?: string;
}

export interface BenchResult {
  /** The results' name: the bench file's name without `.bench.ts`, or a variant of it. */
  bench: string;
  /** When the bench ended, ISO 8601 UTC. */
  date: string;
  seconds: number;
  commit: { sha: string; dirty: boolean };
  machine: { cpus: number; model: string; memoryGiB: number; node: string; platform: string };
  /** Load average (1, 5 and 15 minutes) when the bench started and when it ended. */
  load: { start: number[]; end: number[] };
  /** Every BENCH_* variable set, and the database (`pglite`, or `postgres` with TEST_DATABASE_URL). */
  settings: Record<string, string>;
  figures: Figure[];
}

// `name: value unit rest`: a dotted name without spaces, a number, then an optional unit glued or
// spaced (`1.05x`, `12 ms`), not a parenthesis (`1234 (the feed: 1240)` has no unit).
const FIGURE_LINE = /^([A-Za-z][\w.@-]*): (-?\d+(?:\.\d+)?)(?: ?([^\s(]+))?\s*(.*)$/;

/** The figures among a bench's printed lines; comments (`# …`) and prose are not figures. */
export function parseFigures(lines: readonly string[]): Figure[] {
  const figures: Figure[] = [];
  for (const line of lines) {
    const m = FIGURE_LINE.exec(line.trimEnd());
    if (!m) continue;
    const [, name, value, unit, note] = m as unknown as [string, string, string, string | undefined, string];
    figures.push({ name, value: Number(value), unit: unit ?? '', ...(note ? { note } : {}) });
  }
  return figures;
}

/** What a results file must hold; the problems found, none when it is whole. */
export function resultProblems(data: unknown): string[] {
  const r = data as Partial<BenchResult> | null;
  if (typeof r !== 'object' || r === null) return ['not an object'];
  const problems: string[] = [];
  const isLoad = (l: unknown) => Array.isArray(l) && l.length === 3 && l.every((n) => typeof n === 'number');
  if (typeof r.bench !== 'string' || !r.bench) problems.push('bench');
  if (typeof r.date !== 'string' || Number.isNaN(Date.parse(r.date))) problems.push('date');
  if (typeof r.seconds !== 'number') problems.push('seconds');
  if (typeof r.commit?.sha !== 'string' || !/^[0-9a-f]{40}$/.test(r.commit.sha) || typeof r.commit.dirty !== 'boolean')
    problems.push('commit');
  const m = r.machine;
  if (!m || typeof m.cpus !== 'number' || typeof m.model !== 'string' || typeof m.memoryGiB !== 'number' || typeof m.node !== 'string')
    problems.push('machine');
  if (!isLoad(r.load?.start) || !isLoad(r.load?.end)) problems.push('load');
  if (typeof r.settings !== 'object' || r.settings === null || typeof r.settings.database !== 'string') problems.push('settings');
  if (!Array.isArray(r.figures) || r.figures.length === 0) problems.push('figures');
  else if (!r.figures.every((f) => typeof f?.name === 'string' && typeof f.value === 'number' && typeof f.unit === 'string'))
    problems.push('figures: each a name, a number and a unit');
  return problems;
}

const loadAverage = () => os.loadavg().map((l) => Math.round(l * 100) / 100);

/** The machine's load averages (1, 5 and 15 minutes), for a bench's lines. */
export const loadText = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

function commit(): BenchResult['commit'] {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: import.meta.dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const sha = git('rev-parse', 'HEAD').trim();
  let dirty = false;
  try {
    // Results written by the benches run before this one do not make the tree differ.
    git('diff', '--quiet', 'HEAD', '--', '.', ':(exclude)bench/results');
  } catch {
    dirty = true;
  }
  return { sha, dirty };
}

function settings(): Record<string, string> {
  const set: [string, string][] = [];
  for (const [name, value] of Object.entries(process.env))
    if (name.startsWith('BENCH_') && name !== 'BENCH_RESULTS' && value !== undefined) set.push([name, value]);
  set.sort(([a], [b]) => a.localeCompare(b));
  // The URL may carry a password: only which database.
  return Object.fromEntries([...set, ['database', process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite']]);
}

/** Keeps what the bench prints from now on; `write` saves its figures as `name`'s results. */
export function startResults(name: string): { write(): string | undefined } {
  const started = { at: performance.now(), load: loadAverage() };
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    lines.push(...format(...args).split('\n'));
    log.apply(console, args);
  };
  return {
    write() {
      console.log = log;
      const where = process.env.BENCH_RESULTS;
      if (where === 'off') return undefined;
      // A run that measured nothing (BENCH_BUILD_ONLY, a bench that only builds its data) keeps
      // the last results: an empty file would replace them and leave docs/performance.md's table
      // behind.
      const figures = parseFigures(lines);
      if (figures.length === 0) {
        log(`# no figures printed: ${name}'s results are kept as they were`);
        return undefined;
      }
      const cpus = os.cpus();
      const result: BenchResult = {
        bench: name,
        date: new Date().toISOString(),
        seconds: Math.round((performance.now() - started.at) / 100) / 10,
        commit: commit(),
        machine: {
          cpus: cpus.length,
          model: cpus[0]?.model.trim() ?? 'unknown',
          memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
          node: process.version,
          platform: `${process.platform} ${process.arch}`,
        },
        load: { start: started.load, end: loadAverage() },
        settings: settings(),
        figures,
      };
      const dir = where ? path.resolve(where) : RESULTS_DIR;
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${name}.json`);
      writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
      log(`# results: ${path.relative(process.cwd(), file)}`);
      return file;
    },
  };
}

/** Runs a bench's `main` and writes its results when it succeeds (none when it throws). */
export async function withResults(name: string, main: () => Promise<unknown>): Promise<void> {
  const results = startResults(name);
  await main();
  results.write();
}
