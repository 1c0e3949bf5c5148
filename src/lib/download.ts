// Saving a file made in the browser (CSV exports, pending-record exports): no server round trip, works offline.

/** Saves text as a file through a temporary link (no server round trip, works offline). */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers start the download after the click handler returns: revoke a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
