// Provider names for rows that only carry `sp_Id` (services to verify, rejected services):
// read through the data layer, so the device's copy answers offline and the server online.
import { recordTitle, serviceProvider } from '../../../schemas/index';
import type { DataLayer } from '../../lib/data';

// Names hardly change while a list is open; one lookup per provider per page load is enough.
const known = new Map<string, string>();

export async function providerNames(data: DataLayer, ids: readonly string[]): Promise<ReadonlyMap<string, string>> {
  const wanted = [...new Set(ids)].filter((id) => id && !known.has(id));
  await Promise.all(
    wanted.map(async (id) => {
      const doc = await data.get(serviceProvider, id).catch(() => null);
      if (doc) known.set(id, recordTitle(serviceProvider, doc));
    }),
  );
  return new Map(ids.filter((id) => known.has(id)).map((id) => [id, known.get(id) as string]));
}

/** Rows with `providerName` added from their `sp_Id`. */
export async function withProviderNames<R extends { sp_Id: string }>(
  data: DataLayer,
  rows: readonly R[],
): Promise<(R & { providerName: string })[]> {
  const names = await providerNames(
    data,
    rows.map((r) => r.sp_Id),
  );
  return rows.map((row) => ({ ...row, providerName: names.get(row.sp_Id) ?? '' }));
}
