// @vitest-environment jsdom
// EntityForm: the server's rules as clear messages in both languages, the server's own field
// errors put back on the fields, and the draft that survives a reload.
import { createElement } from 'react';
import { AxiosError, AxiosHeaders } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { serviceProvider } from '../../../schemas/index';
import { EntityForm, loadDraft, type EntityFormProps, type FormApi } from '../../../src/components/entity';
import { vaultOpenAs } from './sealed-values';
import { blur, click, helperOf, inputByLabel, render, typeInto, wait, type Lang, type Rendered } from './render';
import { viewOverLists } from './lists-view';

const LISTS = {
  territory: [
    { id: 1, fr: 'Goma', en: 'Goma', active: true },
    { id: 2, fr: 'Béni', en: 'Beni', active: true },
  ],
};

function formProps(overrides: Partial<EntityFormProps> = {}): EntityFormProps {
  return { entity: serviceProvider, fields: ['sp_Name', 'sp_type', 'territory', 'email', 'phone'], onSubmit: vi.fn(), ...overrides };
}

const mounted = viewOverLists(LISTS);

async function open(lang: Lang, overrides: Partial<EntityFormProps> = {}): Promise<Rendered> {
  mounted.view = await render(createElement(EntityForm, formProps(overrides)), lang);
  return mounted.view;
}

function submitButton(container: HTMLElement): HTMLButtonElement {
  return container.querySelector('button[type="submit"]') as HTMLButtonElement;
}

async function submit(container: HTMLElement): Promise<void> {
  await click(submitButton(container));
  await wait();
}

function summary(container: HTMLElement): string {
  return container.querySelector('[data-testid="form-errors"]')?.textContent ?? '';
}

describe('EntityForm validation', () => {
  it('refuses an empty required field, in English', async () => {
    const onSubmit = vi.fn();
    const { container } = await open('en', { onSubmit });
    await submit(container);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(helperOf(container, 'Name')).toBe('Name is required');
    expect(helperOf(container, 'Type')).toBe('Type is required');
    expect(summary(container)).toContain('Please correct these 3 problems');
    expect(summary(container)).toContain('Territory is required');
  });

  it('refuses an empty required field, in French', async () => {
    const { container } = await open('fr');
    await submit(container);
    expect(helperOf(container, 'Nom')).toBe('« Nom » est obligatoire');
    expect(summary(container)).toContain('« Territoire » est obligatoire');
  });

  it('says how long a text may be', async () => {
    const { container } = await open('en');
    await typeInto(inputByLabel(container, 'Name'), 'x'.repeat(201));
    await submit(container);
    expect(helperOf(container, 'Name')).toBe('Name must have at most 200 characters (now 201)');
    await typeInto(inputByLabel(container, 'Name'), 'x');
    expect(helperOf(container, 'Name')).toBe('Name must have at least 2 characters');
  });

  it('checks email and phone formats in both languages', async () => {
    const en = await open('en');
    await typeInto(inputByLabel(en.container, 'Email'), 'not-an-email');
    await typeInto(inputByLabel(en.container, 'Phone'), 'call me');
    await submit(en.container);
    expect(helperOf(en.container, 'Email')).toBe('Email must be an email address, for example name@example.org');
    expect(helperOf(en.container, 'Phone')).toBe('Phone must be a phone number, for example +243 81 234 5678');
    await en.unmount();
    localStorage.clear(); // the draft of the English form
    const fr = await open('fr');
    await typeInto(inputByLabel(fr.container, 'E-mail'), 'nom@');
    await submit(fr.container);
    expect(helperOf(fr.container, 'E-mail')).toBe('« E-mail » doit être une adresse e-mail, par exemple nom@exemple.org');
  });

  it('shows a message once the field is left, before any submit', async () => {
    const { container } = await open('en');
    const email = inputByLabel(container, 'Email');
    await typeInto(email, 'a@');
    expect(helperOf(container, 'Email')).toBe('');
    await blur(email);
    expect(helperOf(container, 'Email')).toContain('must be an email address');
  });

  it('sends API values: trimmed texts, numbers, null for cleared optional fields', async () => {
    const onSubmit = vi.fn();
    const { container } = await open('en', {
      onSubmit,
      initialValues: {
        sp_Id: '0190a0a0-0000-7000-8000-000000000001',
        sp_Name: 'Old',
        sp_type: 2,
        territory: 2,
        email: 'old@example.org',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
      recordKey: '0190a0a0-0000-7000-8000-000000000001',
    });
    await typeInto(inputByLabel(container, 'Name'), '  Centre Espoir  ');
    await typeInto(inputByLabel(container, 'Email'), '');
    await submit(container);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ sp_Name: 'Centre Espoir', sp_type: 2, territory: 2, email: null, phone: null });
  });
});

function badRequest(errors: { field: string; message: string }[]): AxiosError {
  const response = {
    status: 400,
    statusText: 'Bad Request',
    data: { statusCode: 400, message: 'invalid', errors },
    headers: {},
    config: { headers: new AxiosHeaders() },
  };
  return new AxiosError('Request failed with status code 400', 'ERR_BAD_REQUEST', undefined, undefined, response);
}

const VALID = { sp_Name: 'Centre Espoir', sp_type: 1, territory: 1 };

describe('EntityForm extra content', () => {
  it('validates and sends the values its slot sets (a location picker)', async () => {
    const onSubmit = vi.fn();
    const slot = (form: FormApi) =>
      createElement(
        'button',
        {
          type: 'button',
          onClick: () => {
            form.setValue('lat', 95);
            form.setValue('lng', '29.2228');
          },
        },
        'pick',
      );
    const { container } = await open('en', { onSubmit, initialValues: VALID, children: slot });
    const pick = Array.from(container.querySelectorAll('button')).find((b) => b.textContent === 'pick') as HTMLButtonElement;
    await click(pick);
    await submit(container);
    expect(onSubmit).not.toHaveBeenCalled();
    expect(summary(container)).toContain('Latitude must be at most 90');
  });
});

describe('EntityForm and the server', () => {
  it('puts the server field errors under their fields, with the label instead of the code name', async () => {
    const onSubmit = vi.fn().mockRejectedValue(
      badRequest([
        { field: 'sp_Name', message: 'sp_Name must have at most 200 characters' },
        { field: 'body', message: 'The request is not valid' },
      ]),
    );
    const { container } = await open('en', { onSubmit, initialValues: VALID });
    await submit(container);
    expect(onSubmit).toHaveBeenCalled();
    expect(helperOf(container, 'Name')).toBe('Name must have at most 200 characters');
    expect(summary(container)).toContain('The request is not valid');
    // Editing the field clears the server's message about it.
    await typeInto(inputByLabel(container, 'Name'), 'Centre Espoir 2');
    expect(helperOf(container, 'Name')).toBe('');
  });

  it('shows other failures and hands them to the screen', async () => {
    const failure = new Error('Network Error');
    const onError = vi.fn();
    const { container } = await open('en', { onSubmit: vi.fn().mockRejectedValue(failure), onError, initialValues: VALID });
    await submit(container);
    expect(onError).toHaveBeenCalledWith(failure);
    expect(summary(container)).toContain('Network Error');
  });

  it('disables the submit button while saving', async () => {
    let finish: () => void = () => undefined;
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const { container } = await open('en', { onSubmit, initialValues: VALID });
    await submit(container);
    expect(submitButton(container).disabled).toBe(true);
    expect(submitButton(container).textContent).toBe('Saving…');
    finish();
    await wait();
    expect(submitButton(container).disabled).toBe(false);
  });
});

describe('EntityForm drafts', () => {
  const KEY = 'draft:serviceProvider:new';
  vaultOpenAs('draft-user');

  it('keeps typed values across a reload and says so', async () => {
    const first = await open('en');
    await typeInto(inputByLabel(first.container, 'Name'), 'Centre Espoir');
    await wait(400);
    expect(loadDraft(KEY)?.values).toMatchObject({ sp_Name: 'Centre Espoir' });
    await first.unmount();
    const second = await open('en');
    expect((inputByLabel(second.container, 'Name') as HTMLInputElement).value).toBe('Centre Espoir');
    expect(second.container.textContent).toContain('Unsaved changes from');
  });

  it('writes the draft at once when the page goes away', async () => {
    const { container } = await open('en');
    await typeInto(inputByLabel(container, 'Name'), 'Quick');
    window.dispatchEvent(new Event('pagehide'));
    expect(loadDraft(KEY)?.values.sp_Name).toBe('Quick');
  });

  it('forgets the draft once saved', async () => {
    const onSubmit = vi.fn();
    const { container } = await open('en', { onSubmit, initialValues: VALID });
    await typeInto(inputByLabel(container, 'Name'), 'Centre Espoir Goma');
    await wait(400);
    expect(loadDraft(KEY)).not.toBeNull();
    await submit(container);
    await wait(400);
    expect(onSubmit).toHaveBeenCalled();
    expect(loadDraft(KEY)).toBeNull();
  });

  it('forgets the draft on cancel', async () => {
    const onCancel = vi.fn();
    const { container } = await open('en', { onCancel });
    await typeInto(inputByLabel(container, 'Name'), 'Typed then cancelled');
    await wait(400);
    const cancel = Array.from(container.querySelectorAll('button')).find((b) => b.textContent === 'Cancel') as HTMLButtonElement;
    await click(cancel);
    expect(onCancel).toHaveBeenCalled();
    expect(loadDraft(KEY)).toBeNull();
  });

  it("keeps a location set by the form's extra content (a new record had none) across a reload", async () => {
    const pick = (form: FormApi) =>
      createElement(
        'button',
        {
          type: 'button',
          'data-testid': 'pick',
          onClick: () => {
            form.setValue('lat', '-1.6792');
            form.setValue('lng', '29.2228');
          },
        },
        'Pick',
      );
    const first = await open('en', { children: pick, initialValues: VALID });
    await click(first.container.querySelector('[data-testid="pick"]') as HTMLElement);
    await wait(400);
    expect(loadDraft(KEY)?.values).toMatchObject({ lat: '-1.6792', lng: '29.2228' });
    await first.unmount();
    mounted.view = null;

    const onSubmit = vi.fn();
    const second = await open('en', { children: pick, onSubmit, initialValues: VALID });
    await submit(second.container);
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ lat: -1.6792, lng: 29.2228 }));
  });

  it('keeps one draft per record', async () => {
    const key = '0190a0a0-0000-7000-8000-000000000002';
    const { container } = await open('en', { recordKey: key, initialValues: { sp_Id: key, ...VALID } });
    await typeInto(inputByLabel(container, 'Name'), 'Edited');
    await wait(400);
    expect(loadDraft(`draft:serviceProvider:${key}`)).not.toBeNull();
    expect(loadDraft(KEY)).toBeNull();
  });
});
