// @vitest-environment jsdom
// The client form's controller (useClientForm) without its view: a step is checked before the
// next, an optional record can be skipped or is included by typing in it, a section edit saves
// its section alone, and a save of an unfinished draft goes back to the first step with a problem.
import { createElement, act, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredClient } from '../../../src/features/clients/clientDraft';
import { STEPS } from '../../../src/features/clients/steps';
import { useClientForm, type ClientFormInput } from '../../../src/features/clients/useClientForm';
import { closeVault, openVaultAs } from './sealed-values';
import { renderHook, wait, type RenderedHook } from './render';

const Router = ({ children }: { children: ReactNode }) => createElement(MemoryRouter, null, children);

const stored: StoredClient = {
  profile: { prof_Id: 'p1', prof_Reg_No: 'GOM-1', firstName: 'Amani', lastName: 'Kahindo', updatedAt: '2026-01-01T00:00:00.000Z' },
  records: { social: { maritalStatus: 'married', dependants: 3, updatedAt: '2026-01-01T00:00:00.000Z' } },
};

let hook: RenderedHook<ReturnType<typeof useClientForm>, ClientFormInput> | null = null;

async function open(input: ClientFormInput, lang: 'en' | 'fr' = 'en') {
  hook = await renderHook(useClientForm, { initialProps: input, wrapper: Router, lang });
  return hook.result;
}

beforeEach(async () => {
  localStorage.clear();
  await openVaultAs('form-user');
});
afterEach(async () => {
  await hook?.unmount();
  hook = null;
  closeVault();
});

describe('the client form controller', () => {
  it('keeps a new client on its identity until the identity is valid, then says what is missing', async () => {
    const form = await open({ stored: null, editedId: null });
    expect(form.current.step).toBe('identity');
    expect(form.current.errorsOf('identity')).toEqual({}); // nothing said before a try
    await act(async () => form.current.next());
    expect(form.current.step).toBe('identity');
    expect(form.current.errorsOf('identity').firstName).toBe('First name is required');
  });

  it('says the problems in the language of the form', async () => {
    const form = await open({ stored: null, editedId: null }, 'fr');
    await act(async () => form.current.next());
    expect(form.current.errorsOf('identity').firstName).toMatch(/obligatoire/);
  });

  it('shows a field problem once the field was left, not before', async () => {
    const form = await open({ stored: null, editedId: null });
    await act(async () => form.current.leave('identity', 'lastName'));
    expect(Object.keys(form.current.errorsOf('identity'))).toEqual(['lastName']);
  });

  it('skips an optional record without checking it, and includes one typed in', async () => {
    const form = await open({ stored: null, editedId: null });
    await act(async () => form.current.goTo(STEPS.indexOf('skills')));
    expect(form.current.step).toBe('skills');
    await act(async () => form.current.next(false));
    expect(form.current.step).toBe('social');
    expect(form.current.reg.included).toEqual([]);
    await act(async () => form.current.setValue('social', 'dependants', '2'));
    expect(form.current.reg.included).toEqual(['social']);
    expect(form.current.isDone(STEPS.indexOf('skills'))).toBe(false); // skipped: no tick
  });

  it('opens a section edit on that section alone, with the registration number shown', async () => {
    const form = await open({ stored, editedId: 'p1', initialStep: 'social' });
    expect(form.current.section).toBe('social');
    expect(form.current.step).toBe('social');
    expect(form.current.editing).toBe(true);
    expect(form.current.fieldsOf('identity')[0]).toBe('prof_Reg_No');
    expect(form.current.valuesOf('social')).toMatchObject({ dependants: '3' }); // as typed: the form holds raw text;
  });

  it('opens the review of an edit as the whole stepper', async () => {
    const form = await open({ stored, editedId: 'p1', initialStep: 'review' });
    expect(form.current.section).toBeNull();
    expect(form.current.step).toBe('review');
  });

  it('goes back to the first step with a problem when an unfinished draft is saved', async () => {
    const form = await open({ stored: null, editedId: null });
    await act(async () => form.current.goTo(STEPS.indexOf('review')));
    await act(async () => form.current.save());
    await wait();
    expect(form.current.step).toBe('identity');
    expect(form.current.saving).toBe(false);
    expect(form.current.errorsOf('identity').firstName).toBe('First name is required');
  });

  it('forgets a restored draft when it is discarded', async () => {
    const first = await open({ stored, editedId: 'p1' });
    await act(async () => first.current.setValue('identity', 'address', 'Bukavu'));
    await hook?.unmount(); // the draft is written as the form closes
    const form = await open({ stored, editedId: 'p1', initialStep: 'identity' });
    expect(form.current.restored).not.toBeNull();
    expect(form.current.showRestored).toBe(true);
    expect(form.current.wholeDraft).toBe(false); // the draft changed only the section asked
    await act(async () => form.current.discardDraft());
    expect(form.current.showRestored).toBe(false);
    expect(form.current.valuesOf('identity').address).not.toBe('Bukavu');
  });
});
