import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startModules } from './app/App';
import { leaveNoTransaction } from './lib/store';
import { buildIntl, getLang, loadMessages, type Messages, setAppIntl } from './lib/session';

/** How long the first render waits for the first screen's modules at most (a slow network):
 * then it draws what it has, and the rest as it comes. */
const MODULES_WAIT_MS = 3_000;

/** Translations are loaded before the first render (product.md §7), so no screen flashes ids; a
 * signed-in start's modules too (App.tsx `startModules`), so it draws its first screen whole. */
async function start(): Promise<void> {
  const lang = getLang();
  document.documentElement.lang = lang;
  const modules = Promise.race([startModules(), new Promise((resolve) => setTimeout(resolve, MODULES_WAIT_MS))]);
  let messages: Messages = {};
  try {
    messages = await loadMessages(lang);
  } catch (error) {
    console.error('Translations could not be loaded; showing message ids.', error);
  }
  await modules;
  const intl = buildIntl(lang, messages);
  setAppIntl(intl);
  document.title = intl.formatMessage({ id: 'app.title' });
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  performance.mark('app:render');
  // A transition: React draws the first screen in slices of a few milliseconds, so a phone's
  // main thread answers input meanwhile rather than freezing for the whole tree (ADR-0035).
  const app = createRoot(root);
  startTransition(() =>
    app.render(
      <StrictMode>
        <App intl={intl} />
      </StrictMode>,
    ),
  );
}

// Before any store opens: a page WebKit keeps in its back/forward cache must leave no IndexedDB
// transaction open, or the next page's saves wait on it forever (leaveNoTransaction.ts).
leaveNoTransaction();
void start();
