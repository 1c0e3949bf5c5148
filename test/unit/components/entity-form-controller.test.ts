// @vitest-environment jsdom
// The entity form's controller (useEntityForm) without its view: a field's problem is said once it
// was left or a save was tried, nothing is saved while a problem remains, the server's field
// errors land on their fields under their label, a full device is said as such, and the
// screen's own rules and disabling are followed.
import { act } from 'react';
import { AxiosError, AxiosHeaders } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { serviceProvider } from '../../../schemas/index';
import type { EntityFormProps } from '../../../src/components/entity';
import { useEntityForm } from '../../../src/components/entity/useEntityForm';
import type { Problem } from '../../../src/components/entity/validation';
import { LISTS_KEY } from '../../../src/lib/data/lists';
import { renderHook, type Lang, type RenderedHook } from './render';

const VALID = { sp_Name: 'Centre Espoir', sp_type: 1, territory: 1 };
let hook: RenderedHook<ReturnType<typeof useEntityForm>, EntityFormProps> | null = null;

async function open(overrides: Partial<EntityFormProps> = {}, lang: Lang = 'en') {
  const props: EntityFormProps = {
    entity: serviceProvider,
    fields: ['sp_Name', 'sp_type', 'territory', 'email'],
    onSubmit: vi.fn(),
    keepDraft: false,
    ...overrides,
  };
  hook = await renderHook(useEntityForm, { initialProps: props, lang });
  return { form: hook.result, props };
}

function badRequest(errors: { field: string; message: string }[]): AxiosError {
  return new AxiosError('Request failed with status code 400', 'ERR_BAD_REQUEST', undefined, undefined, {
    status: 400,
    statusText: 'Bad Request',
    data: { statusCode: 400, message: 'invalid', errors },
    headers: {},
    config: { headers: new AxiosHeaders() },
  });
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(LISTS_KEY, JSON.stringify({ territory: [{ id: 1, fr: 'Goma', en: 'Goma', active: true }] }));
});
afterEach(async () => {
  await hook?.unmount();
  hook = null;
});

describe('the entity form controller', () => {
  it('says a field’s problem once the field was left, not before', async () => {
    const { form } = await open();
    expect(form.current.errors).toEqual({});
    await act(async () => form.current.leave('sp_Name'));
    expect(form.current.errors).toEqual({ sp_Name: 'Name is required' });
    expect(form.current.summary).toEqual([]); // the summary waits for a save
  });

  it('saves nothing while a problem remains, and lists every problem, in French too', async () => {
    const { form, props } = await open({}, 'fr');
    await act(async () => form.current.submit());
    expect(props.onSubmit).not.toHaveBeenCalled();
    expect(form.current.summary).toContain('« Nom » est obligatoire');
    expect(form.current.summary).toHaveLength(3);
  });

  it('sends the API values, empty fields as null', async () => {
    const { form, props } = await open({ initialValues: VALID });
    await act(async () => form.current.submit());
    expect(props.onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ sp_Name: 'Centre Espoir', sp_type: 1, territory: 1, email: null }),
    );
    expect(form.current.saving).toBe(false);
  });

  it('puts the server’s field errors on their fields by label, and drops one when its field changes', async () => {
    const onSubmit = vi.fn().mockRejectedValue(
      badRequest([
        { field: 'sp_Name', message: 'sp_Name is taken' },
        { field: 'body', message: 'Not valid' },
      ]),
    );
    const { form } = await open({ initialValues: VALID, onSubmit });
    await act(async () => form.current.submit());
    expect(form.current.errors.sp_Name).toBe('Name is taken');
    expect(form.current.summary).toEqual(['Name is taken', 'Not valid']);
    await act(async () => form.current.setValue('sp_Name', 'Centre Espoir 2'));
    expect(form.current.errors.sp_Name).toBeUndefined();
  });

  it('says a full device as such and hands it to the screen', async () => {
    const full = new DOMException('full', 'QuotaExceededError');
    const onError = vi.fn();
    const { form } = await open({ initialValues: VALID, onSubmit: vi.fn().mockRejectedValue(full), onError });
    await act(async () => form.current.submit());
    expect(form.current.storageFull).toBe(true);
    expect(form.current.summary).toEqual([]);
    expect(onError).toHaveBeenCalledWith(full);
  });

  it('follows the screen’s own rules and its disabling', async () => {
    const { form, props } = await open({
      initialValues: VALID,
      disabled: true,
      validate: (values): Record<string, Problem> => (values.email ? {} : { email: { id: 'entityForm.error.required' } }),
    });
    expect(form.current.busy).toBe(true);
    await act(async () => form.current.submit());
    expect(props.onSubmit).not.toHaveBeenCalled();
    expect(form.current.errors.email).toBe('Email is required');
  });
});
