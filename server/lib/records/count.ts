// The count a list answers beside its page, bounded: exact up to COUNT_BOUND rows, beyond which
// the answer says "more than" (`totalIsLowerBound`), so that no list reads a whole table to count
// it (docs/api.md "Lists", docs/adr/0035-performance.md "A list's count is bounded").
import type { Queryable } from '../../db/index';

/** Rows counted exactly before a list says "more than". */
export const COUNT_BOUND = 10_000;

let bound = COUNT_BOUND;

/** The bound of this server process (config.listCountBound, LIST_COUNT_BOUND): a small one lets
 * the tests reach it with a few rows. One server per process, as in production. */
export function setCountBound(value: number): void {
  bound = value;
}

/** Rows this process counts exactly before it says "more than". */
export function countBound(): number {
  return bound;
}

export interface Counted {
  total: number;
  /** True when there are more than `total` rows. */
  totalIsLowerBound: boolean;
}

/**
 * Counts the rows of `fromWhere` (`FROM … WHERE …`, its parameters `params`) up to the bound, or
 * up to the end of the page asked when that is further (a deep page): the answer then always
 * knows whether a next page exists, and reads no more rows than the page's OFFSET does.
 */
export async function boundedCount(db: Queryable, fromWhere: string, params: readonly unknown[], pageEnd: number): Promise<Counted> {
  const limit = Math.max(bound, pageEnd);
  const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 ${fromWhere} LIMIT ${limit + 1}) AS counted`, [
    ...params,
  ]);
  const n = row?.n ?? 0;
  return n > limit ? { total: limit, totalIsLowerBound: true } : { total: n, totalIsLowerBound: false };
}
