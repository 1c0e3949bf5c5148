// What a page did, for the report of a failed engine run (test/browser/engine-flows.ts): its
// console and errors, the clicks and submits it received (with the element found at the click's
// point), and which IndexedDB transactions are still open. Installed through the driver's script
// evaluation after each page load (the app's CSP refuses inline scripts); it changes nothing the
// app does, it only listens and wraps `IDBDatabase.prototype.transaction` to count.

interface TraceWindow {
  __trace?: { lines: string[]; open: Map<number, string>; next: number; since: number };
}

/** Page-side: starts tracing this document (once; a second call does nothing). */
export function traceInPage(): void {
  const w = window as unknown as TraceWindow;
  if (w.__trace) return;
  const trace = { lines: [] as string[], open: new Map<number, string>(), next: 1, since: performance.now() };
  w.__trace = trace;
  const at = () => `${((performance.now() - trace.since) / 1000).toFixed(2)}s`;
  const push = (line: string) => {
    trace.lines.push(`${at()} ${line.slice(0, 300)}`);
    if (trace.lines.length > 80) trace.lines.splice(0, trace.lines.length - 80);
  };
  const text = (value: unknown): string => {
    if (value instanceof Error) return `${value.name}: ${value.message}`;
    if (typeof value === 'string') return value;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  };
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      push(`console.${level} ${args.map(text).join(' ')}`);
      original(...args);
    };
  }
  window.addEventListener('error', (event) => push(`error ${text(event.error ?? event.message)}`));
  window.addEventListener('unhandledrejection', (event) => push(`unhandledrejection ${text(event.reason)}`));
  const describe = (element: Element | null): string => {
    if (!element) return 'nothing';
    const id = element.id ? `#${element.id}` : '';
    const cls = typeof element.className === 'string' ? `.${element.className.split(/\s+/).filter(Boolean).slice(0, 2).join('.')}` : '';
    return `${element.tagName.toLowerCase()}${id}${cls} "${(element.textContent ?? '').trim().slice(0, 40)}"`;
  };
  for (const type of ['pointerdown', 'click', 'submit']) {
    document.addEventListener(
      type,
      (event) => {
        const mouse = event as MouseEvent;
        const point =
          'clientX' in mouse
            ? ` at ${mouse.clientX},${mouse.clientY} top=${describe(document.elementFromPoint(mouse.clientX, mouse.clientY))}`
            : '';
        push(`${type} on ${describe(event.target as Element)}${point}`);
      },
      true,
    );
  }
  // The document left behind: whether it went into the back/forward cache (persisted) with
  // transactions still open, read by the next document's report.
  window.addEventListener('pagehide', (event) => {
    const left = `${location.pathname} persisted=${String(event.persisted)} open: ${Array.from(trace.open.values()).join('; ') || 'none'}`;
    try {
      localStorage.setItem('__tracePrevious', left.slice(0, 2000));
    } catch {
      // nothing to keep it in
    }
  });
  const original = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
    const tx = original.apply(this, args);
    const id = trace.next++;
    trace.open.set(id, `${this.name} [${Array.from(tx.objectStoreNames).join(',')}] ${tx.mode} since ${at()}`);
    const end = () => trace.open.delete(id);
    tx.addEventListener('complete', end);
    tx.addEventListener('abort', () => {
      push(`transaction aborted ${this.name}: ${text(tx.error)}`);
      end();
    });
    tx.addEventListener('error', end);
    return tx;
  } as IDBDatabase['transaction'];
}

/** Page-side: the trace so far, the transactions still open, and what lies over the form's
 * submit button (the toasts, the element at its centre). */
export function traceReportInPage(): string {
  const trace = (window as unknown as TraceWindow).__trace;
  const submit = document.querySelector<HTMLElement>('form button[type="submit"]');
  let button = 'no submit button';
  if (submit) {
    const rect = submit.getBoundingClientRect();
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    const top = document.elementFromPoint(x, y);
    button = `submit "${submit.textContent ?? ''}" at ${Math.round(x)},${Math.round(y)} of ${innerWidth}x${innerHeight}, disabled=${String(
      (submit as HTMLButtonElement).disabled,
    )}, form aria-busy=${submit.closest('form')?.getAttribute('aria-busy') ?? '?'}, top there: ${
      top === submit || submit.contains(top)
        ? 'the button'
        : `${top?.tagName ?? 'nothing'} "${(top?.textContent ?? '').trim().slice(0, 60)}"`
    }`;
  }
  const toasts = Array.from(document.querySelectorAll('.notistack-Snackbar, [role="alert"]'), (toast) =>
    (toast.textContent ?? '').trim().slice(0, 80),
  );
  if (!trace) return `${button} | toasts: ${toasts.join(' / ')} | no trace`;
  return [
    button,
    `toasts: ${toasts.join(' / ')}`,
    `open transactions: ${Array.from(trace.open.values()).join('; ') || 'none'}`,
    `the document left before: ${localStorage.getItem('__tracePrevious') ?? 'none traced'}`,
    'trace:',
    ...trace.lines.slice(-40),
  ].join('\n    ');
}
