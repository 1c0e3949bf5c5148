// @vitest-environment jsdom
// CSV export: the text Excel opens correctly (BOM, separators, quoting), every page of the
// filtered rows, and the file the grid's Export button writes.
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serviceProvider } from '../../../schemas/index';
import { BOM, csvCell, csvSeparator, EntityGrid, fetchAllRows, toCsv } from '../../../src/components/entity';
import { LISTS_KEY } from '../../../src/lib/data/lists';
import type { ListQuery, ListResult } from '../../../src/lib/data/types';
import { click, render, wait, type Rendered } from './render';

describe('CSV text', () => {
  it('starts with a BOM and ends lines with CRLF', () => {
    const text = toCsv(['Name', 'Type'], [['Centre', 'Social']], ',');
    expect(text.startsWith(BOM)).toBe(true);
    expect(text).toBe('\uFEFFName,Type\r\nCentre,Social\r\n');
  });

  it.each([
    // Quoted when holding the separator, quotes or line breaks; quotes doubled.
    ['plain', ',', 'plain'],
    ['Goma, Nord-Kivu', ',', '"Goma, Nord-Kivu"'],
    ['Goma, Nord-Kivu', ';', 'Goma, Nord-Kivu'],
    ['a;b', ';', '"a;b"'],
    ['Centre "Espoir"', ',', '"Centre ""Espoir"""'],
    ['line 1\nline 2', ',', '"line 1\nline 2"'],
    [' padded ', ',', '" padded "'],
    // Formulas kept from running in a spreadsheet, but not signed numbers.
    ['=HYPERLINK("http://x")', ',', '"\'=HYPERLINK(""http://x"")"'],
    ['@SUM(A1)', ',', "'@SUM(A1)"],
    ['+243 81 234 5678', ',', "'+243 81 234 5678"],
    ['-1.6792', ',', '-1.6792'],
    ['-1,6792', ';', '-1,6792'],
  ] as const)('writes the cell %j with the separator %j as %j', (value, separator, cell) => {
    expect(csvCell(value, separator)).toBe(cell);
  });

  it('uses the separator Excel expects in each language', () => {
    expect(csvSeparator('en')).toBe(',');
    expect(csvSeparator('fr')).toBe(';');
  });
});

function pagedLoad(total: number) {
  return vi.fn(async (query: ListQuery): Promise<ListResult<{ n: number }>> => {
    const page = query.page ?? 1;
    const size = query.pageSize ?? 10;
    const start = (page - 1) * size;
    const rows = Array.from({ length: Math.max(0, Math.min(size, total - start)) }, (_, i) => ({ n: start + i }));
    return { rows, total, page, pageSize: size };
  });
}

describe('fetching the filtered rows', () => {
  it('reads every page of the query, 200 rows at a time', async () => {
    const load = pagedLoad(450);
    const all = await fetchAllRows(load, { q: 'goma', filter: { territory: 1 } });
    expect(all.rows).toHaveLength(450);
    expect(all.truncated).toBe(false);
    expect(load.mock.calls.map(([q]) => q)).toEqual(
      [1, 2, 3].map((page) => ({ q: 'goma', filter: { territory: 1 }, page, pageSize: 200 })),
    );
  });

  it('stops at the cap and says so', async () => {
    const all = await fetchAllRows(pagedLoad(1000), {}, 300);
    expect(all.rows).toHaveLength(300);
    expect(all).toMatchObject({ total: 1000, truncated: true });
  });
});

describe('the Export button', () => {
  let view: Rendered | null = null;
  afterEach(async () => {
    await view?.unmount();
    view = null;
    vi.unstubAllGlobals();
  });

  it('writes the filtered rows with labels, in French with semicolons', async () => {
    localStorage.setItem(LISTS_KEY, JSON.stringify({ territory: [{ id: 1, fr: 'Béni', en: 'Beni', active: true }] }));
    const files: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: (blob: Blob) => (files.push(blob), 'blob:x'), revokeObjectURL: () => undefined }),
    );
    const rows = [
      {
        sp_Id: '0190a0a0-0000-7000-8000-000000000001',
        sp_Name: 'Centre "Espoir"',
        sp_type: 1,
        territory: 1,
        lat: -1.6792,
        syncState: 'synced',
      },
      { sp_Id: '0190a0a0-0000-7000-8000-000000000002', sp_Name: 'Avocats; Goma', sp_type: 3, territory: 1, syncState: 'pending' },
    ];
    const load = vi.fn(async (q: ListQuery) => ({ rows, total: 2, page: q.page ?? 1, pageSize: q.pageSize ?? 10 }));
    view = await render(
      createElement(EntityGrid<Record<string, unknown>>, {
        entity: serviceProvider,
        load,
        columns: ['sp_Name', 'sp_type', 'territory', 'lat'],
      }),
      'fr',
    );
    await wait(10);
    const button = Array.from(view.container.querySelectorAll('button')).find((b) =>
      b.textContent?.includes('Exporter en CSV'),
    ) as HTMLButtonElement;
    await click(button);
    await wait(10);
    expect(load).toHaveBeenLastCalledWith({ sort: 'sp_Name', dir: 'asc', page: 1, pageSize: 200 });
    expect(files).toHaveLength(1);
    const bytes = new Uint8Array(await (files[0] as Blob).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // the UTF-8 BOM, as bytes in the file
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text).toBe(
      '\uFEFFNom;Type;Territoire;Latitude\r\n"Centre ""Espoir""";Social;Béni;-1,6792\r\n"Avocats; Goma";Juridique;Béni;\r\n',
    );
  });
});
