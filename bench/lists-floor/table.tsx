// Step `table`: React 19 and a plain HTML table.
import { use } from 'react';
import { createRoot } from 'react-dom/client';
import { COLUMNS, type Row } from './rows';

function Rows({ rows }: { rows: Promise<Row[]> }) {
  return use(rows).map((row) => (
    <tr key={row.id}>
      {COLUMNS.map((c) => (
        <td key={c.field}>{row[c.field]}</td>
      ))}
    </tr>
  ));
}

export function draw(rows: Promise<Row[]>) {
  createRoot(document.getElementById('root') as HTMLElement).render(
    <table>
      <thead>
        <tr>
          {COLUMNS.map((c) => (
            <th key={c.field}>{c.headerName}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        <Rows rows={rows} />
      </tbody>
    </table>,
  );
}
