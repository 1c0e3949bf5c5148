// The store's opening held back while a list's first page is drawn (issue 16). RxDB opening its
// 13 collections takes ~0.2-0.5 s of the page's one thread; on a full page load of a list
// screen it came right when the list's answer arrived and delayed its first rows by about that
// much. The list needs the store only to add this device's pending records, which it does as
// soon as the store is open (read.ts), so the store opens once the rows are drawn.

/** The longest the store waits for a list's first rows (a lost answer must not keep it shut). */
export const STORE_HOLD_MAX_MS = 3_000;

let held: { done: Promise<void>; release: () => void } | null = null;

/** Holds the store's opening until `releaseStoreOpening` or `maxMs`. */
export function holdStoreOpening(maxMs = STORE_HOLD_MAX_MS): void {
  if (held) return;
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const timer = setTimeout(release, maxMs);
  held = { done, release: () => (clearTimeout(timer), release()) };
}

/** The first rows are drawn (or the list failed): the store may open. */
export function releaseStoreOpening(): void {
  held?.release();
}

/** Resolved when nothing holds the store's opening. */
export function storeOpeningAllowed(): Promise<void> {
  return held?.done ?? Promise.resolve();
}
