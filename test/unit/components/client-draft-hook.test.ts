// @vitest-environment jsdom
// The client form's draft (useClientDraft) keeps the last keystrokes when the form closes for
// another screen of the app, before its pause has passed, as EntityForm's drafts do.
import { describe, expect, it } from 'vitest';
import { act, createElement, useEffect } from 'react';
import { loadDraft } from '../../../src/components/entity';
import { clientDraftKey, useClientDraft, type ClientDraft } from '../../../src/features/clients/clientDraft';
import { vaultOpenAs } from './sealed-values';
import { render } from './render';

const form: { change?: (update: (current: ClientDraft) => ClientDraft) => void } = {};

function Form() {
  const { setReg } = useClientDraft(null, null);
  useEffect(() => {
    form.change = setReg;
  }, [setReg]);
  return null;
}

describe('the client form draft', () => {
  vaultOpenAs('draft-user');

  it('is written at once when the form closes right after a keystroke', async () => {
    const rendered = await render(createElement(Form));
    await act(async () => form.change?.((current) => ({ ...current, identity: { ...current.identity, firstName: 'Amani' } })));
    await rendered.unmount(); // another screen, sooner than the draft's pause
    expect(loadDraft(clientDraftKey(null))?.values).toMatchObject({ identity: { firstName: 'Amani' } });
  });
});
