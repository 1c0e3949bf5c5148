// Login ends with a full page load (product.md §4), which would swallow a toast shown before it.
// A one-shot sessionStorage flag carries the message across the reload.

const FLASH_KEY = 'icrs.flash';

export type Flash = 'loggedIn' | 'accountInactive';
const FLASHES: readonly string[] = ['loggedIn', 'accountInactive'];

export function setFlash(flash: Flash): void {
  try {
    sessionStorage.setItem(FLASH_KEY, flash);
  } catch {
    // No sessionStorage: the user simply sees no confirmation toast.
  }
}

/** Returns the pending flash once, then forgets it. */
export function takeFlash(): Flash | null {
  try {
    const value = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
    return value && FLASHES.includes(value) ? (value as Flash) : null;
  } catch {
    return null;
  }
}
