// Saving a file made in the browser (CSV exports, pending-record exports): no server round trip, works offline.

/** Saves text as a file through a temporary link (no server round trip, works offline). */
export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8'): void {
  downloadBlob(new Blob([text], { type }), fileName);
}

function clickLink(blob: Blob, setUp: (link: HTMLAnchorElement) => void): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.rel = 'noopener';
  setUp(link);
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers start the download (or the tab) after the click handler returns: revoke later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Saves a blob (a client's document) as a file. */
export function downloadBlob(blob: Blob, fileName: string): void {
  clickLink(blob, (link) => {
    link.download = fileName;
  });
}

/** Opens a blob (a PDF, a photo) in a new tab, where the browser shows it. */
export function openBlob(blob: Blob): void {
  clickLink(blob, (link) => {
    link.target = '_blank';
  });
}
