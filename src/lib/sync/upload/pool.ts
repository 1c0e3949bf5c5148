// The worker pool of the upload engine: a few records, or batches, in flight at once.

/** Runs `work` over `items` with at most `limit` at once; stops taking new items once `stopped()`. */
export async function runPool<T>(
  items: readonly T[],
  limit: number,
  stopped: () => boolean,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stopped()) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
