// The benches' results as data (docs/performance.md "Results as data"): every file in
// bench/results/ holds what a figure depends on, and the document's table is the one those files
// make (`npm run bench:table`), so a figure in it always comes with its machine, load and commit.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseFigures, resultProblems, type BenchResult } from '../../bench/results';
import { DOC, readResults, renderTable, withTable } from '../../bench/table';

const results = readResults();

describe('bench results', () => {
  it('are files that each hold the machine, the load, the commit, the date, the settings and the figures', () => {
    expect(results.length).toBeGreaterThan(0);
    const problems = results.flatMap(({ file, data }) => resultProblems(data).map((p) => `${path.basename(file)}: ${p}`));
    expect(problems).toEqual([]);
    for (const { file, data } of results) expect(`${(data as BenchResult).bench}.json`).toBe(path.basename(file));
  });

  it('make the table in docs/performance.md (run `npm run bench:table` after a bench)', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(withTable(doc, renderTable(results.map((r) => r.data as BenchResult)))).toBe(doc);
  });

  it('take the figure lines a bench prints, not its comments or prose', () => {
    const figures = parseFigures([
      '# api: 100,000 rows per main table on pglite',
      'api.list_p99: 29.5 ms',
      'lists.ratio.providers_first_rows: 1.05x',
      'unlock.home_ready_ms@4x: 815 ms  (runs: 790, 815, 840)',
      'lighthouse.login.performance: 100',
      'first_signin.rows.tbl_profiles: 1234 (the feed: 1240)',
      'migrations.pglite: demo data at scale 5 seeded by a4b273e in 12.3 s',
      'the same, first after a change: 194 ms',
    ]);
    expect(figures).toEqual([
      { name: 'api.list_p99', value: 29.5, unit: 'ms' },
      { name: 'lists.ratio.providers_first_rows', value: 1.05, unit: 'x' },
      { name: 'unlock.home_ready_ms@4x', value: 815, unit: 'ms', note: '(runs: 790, 815, 840)' },
      { name: 'lighthouse.login.performance', value: 100, unit: '' },
      { name: 'first_signin.rows.tbl_profiles', value: 1234, unit: '', note: '(the feed: 1240)' },
    ]);
  });

  it('refuse a file without its load, its commit or any figure', () => {
    const whole: BenchResult = {
      bench: 'api',
      date: '2026-12-06T14:10:00.000Z',
      seconds: 42,
      commit: { sha: '3647c8d04ef1bd98eb92cc45215ec1524faf45f9', dirty: false },
      machine: { cpus: 2, model: 'AMD EPYC', memoryGiB: 23.5, node: 'v20.20.2', platform: 'linux x64' },
      load: { start: [3.1, 2.5, 2], end: [4.2, 2.8, 2.1] },
      settings: { BENCH_RUNS: '3', database: 'pglite' },
      figures: [{ name: 'api.list_p99', value: 29.5, unit: 'ms' }],
    };
    expect(resultProblems(whole)).toEqual([]);
    const { load: _load, ...withoutLoad } = whole;
    expect(resultProblems(withoutLoad)).toEqual(['load']);
    expect(resultProblems({ ...whole, commit: { sha: 'HEAD', dirty: false } })).toEqual(['commit']);
    expect(resultProblems({ ...whole, figures: [] })).toEqual(['figures']);
    expect(renderTable([whole]).split('\n')[2]).toBe('| api | api.list_p99 | 29.5 | ms | 3647c8d0 | 2026-12-06 14:10 | 3.1 → 4.2 |');
  });
});
