// Opening a sealed collection's documents ahead of the query that needs them (docs/performance.md
// "The offline client list"). A query on a sealed field (the client list's search, filters and
// sorts) reads every client opened (sealedStorage.ts): on a phone, thousands of decryptions the
// first time a page asks. The list asks for them while the user looks at its first page, so that
// the search typed next finds them open. Its own module, without RxDB: the data layer (in the
// first screen's code) names it, the sealed storage (loaded with the store) fills it.

/** How each sealed storage instance opens its documents ahead, by the instance. */
const warmers = new WeakMap<object, () => Promise<void>>();

/** The sealed storage instance `instance` opens its documents with `warm` (sealedStorage.ts). */
export function registerWarmer(instance: object, warm: () => Promise<void>): void {
  warmers.set(instance, warm);
}

/**
 * Opens the documents of `collection` ahead when its storage keeps them open in memory (a sealed
 * collection of client data), else does nothing. RxDB wraps the storage's instance (and, in
 * development, its validator too): each wrapper names the one below as `originalStorageInstance`.
 */
export function warmOpened(collection: { storageInstance: unknown }): Promise<void> {
  let instance = collection.storageInstance as { originalStorageInstance?: unknown } | null | undefined;
  for (let depth = 0; instance && depth < 4; depth++) {
    const warm = warmers.get(instance);
    if (warm) return warm();
    instance = instance.originalStorageInstance as typeof instance;
  }
  return Promise.resolve();
}
