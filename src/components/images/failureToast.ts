// A record's image that cannot be loaded is marked in place, and told once per page by a toast
// under its product.md §8 title ('Error getting image2', 'Error getting SP image1'): a gallery that
// draws a thumbnail again, or opens it larger, does not repeat it. Another page starts afresh.
// Offline, the mark ("Not available offline") is what is expected, not an error to toast.
import { isAxiosError } from 'axios';
import { messageOf } from '../../lib/http';
import { browserOnline, getMode } from '../../lib/session';
import { notify } from '../../lib/ui';

let shown: { page: string; titles: Set<string> } = { page: '', titles: new Set() };

/** Toasts `title` with the failure's message, unless this page already did. */
export function toastImageFailure(title: string, error: unknown): void {
  if (getMode() === 'offline' || !browserOnline()) return;
  const page = window.location.pathname;
  if (shown.page !== page) shown = { page, titles: new Set() };
  if (shown.titles.has(title)) return;
  shown.titles.add(title);
  void failureText(error).then((text) => notify.error(title, text));
}

/** The server's message: an image is asked as a blob, so its error answer is a blob too. */
async function failureText(error: unknown): Promise<string> {
  const data: unknown = isAxiosError(error) ? error.response?.data : undefined;
  if (data instanceof Blob && /json/.test(data.type)) {
    try {
      const body = JSON.parse(await data.text()) as { result?: unknown; message?: unknown };
      const text = typeof body.result === 'string' && body.result ? body.result : body.message;
      if (typeof text === 'string' && text) return text;
    } catch {
      // Not the API's JSON: the status text below.
    }
  }
  return messageOf(error);
}

/** The slot's number: jb_img2 → 2. */
export function imageNumber(slot: string): number {
  return Number(slot.slice(-1));
}
