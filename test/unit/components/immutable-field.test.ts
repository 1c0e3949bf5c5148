// @vitest-environment jsdom
// A field declared immutable in schemas/ (prof_Reg_No) is read-only when a stored record is
// edited, and editable while a new record is filled in: the same rule the API enforces
// (server/plugins/records/routes.ts assertImmutableKept).
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { profile } from '../../../schemas/index';
import { EntityForm } from '../../../src/components/entity';
import { render, type Rendered } from './render';

let view: Rendered | null = null;
afterEach(async () => {
  await view?.unmount();
  view = null;
});

async function regNoInput(props: { recordKey?: string; initialValues?: Record<string, unknown> }) {
  view = await render(
    createElement(EntityForm, { entity: profile, fields: ['prof_Reg_No', 'firstName'], onSubmit: vi.fn(), keepDraft: false, ...props }),
    'en',
  );
  const input = view.container.querySelector<HTMLInputElement>('input[id$="-prof_Reg_No"]');
  const other = view.container.querySelector<HTMLInputElement>('input[id$="-firstName"]');
  if (!input || !other) throw new Error('fields not rendered');
  return { input, other };
}

describe('immutable fields in EntityForm', () => {
  it('shows the registration number of a stored client read-only, other fields editable', async () => {
    const { input, other } = await regNoInput({
      recordKey: 'p1',
      initialValues: { prof_Id: 'p1', prof_Reg_No: 'ICRS4K7Q2Z9X', firstName: 'Amani' },
    });
    expect(input.disabled).toBe(true);
    expect(input.value).toBe('ICRS4K7Q2Z9X');
    expect(other.disabled).toBe(false);
  });

  it('lets a new client be given one', async () => {
    const { input } = await regNoInput({});
    expect(input.disabled).toBe(false);
  });
});
