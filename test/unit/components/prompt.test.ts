// @vitest-environment jsdom
// A prompt stays until its work is done (docs/adr/0048-first-day-screens.md "A prompt goes when its work is done"),
// so it can also be closed by hand, in the user's language: on a phone it may lie over the
// page's own buttons.
import { act, createElement } from 'react';
import { SnackbarProvider } from 'notistack';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildIntl, setAppIntl } from '../../../src/lib/session/i18n';
import { dismiss, prompt } from '../../../src/lib/ui/notify';
import { click, messages, render, wait, type Lang, type Rendered } from './render';

let shown: Rendered | undefined;
afterEach(async () => {
  await shown?.unmount();
  shown = undefined;
});

async function showPrompt(lang: Lang): Promise<Rendered> {
  setAppIntl(buildIntl(lang, messages[lang]));
  shown = await render(createElement(SnackbarProvider, null, null), lang);
  await act(async () => prompt('no-connection', 'error', 'Pas de connexion', 'La connexion Internet n’est pas disponible.'));
  await vi.waitFor(() => expect(document.querySelector('[data-testid="toast"]')).not.toBeNull(), { timeout: 10_000 });
  return shown;
}

describe('a prompt', () => {
  it.each([
    ['fr', 'Fermer'],
    ['en', 'Close'],
  ] as const)('in %s: closes by its "%s" button', async (lang, label) => {
    await showPrompt(lang);
    await wait(100);
    const close = document.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
    expect(close).not.toBeNull();
    await click(close as Element);
    await vi.waitFor(() => expect(document.querySelector('[data-testid="toast"]')).toBeNull(), { timeout: 10_000 });
  });

  it('goes when its work is done', async () => {
    await showPrompt('en');
    await act(async () => dismiss('no-connection'));
    await vi.waitFor(() => expect(document.querySelector('[data-testid="toast"]')).toBeNull(), { timeout: 10_000 });
  });
});
