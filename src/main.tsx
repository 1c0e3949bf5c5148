import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { buildIntl, loadMessages, setAppIntl, type Messages } from './lib/i18n';
import { getLang } from './lib/session';

/** Translations are loaded before the first render (spec §7), so no screen flashes ids. */
async function start(): Promise<void> {
  const lang = getLang();
  document.documentElement.lang = lang;
  let messages: Messages = {};
  try {
    messages = await loadMessages(lang);
  } catch (error) {
    console.error('Translations could not be loaded; showing message ids.', error);
  }
  const intl = buildIntl(lang, messages);
  setAppIntl(intl);
  document.title = intl.formatMessage({ id: 'app.title' });
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  performance.mark('app:render');
  createRoot(root).render(
    <StrictMode>
      <App intl={intl} />
    </StrictMode>,
  );
}

void start();
