// Records collected in a built app through its data layer (the support handle `window.__icrs`,
// as a form's Save does): a plan of mixed records made from the schema samples, and its saving.
import type { Page } from 'playwright-core';
import type { EntityShape } from '../../schemas/define';
import { sampleBody } from '../../schemas/derive/sample';
import { profile } from '../../schemas/index';
import { writeUnit } from './pending';

export type Plan = { entity: string; values: Record<string, unknown>; parent?: { field: string; index: number } }[];

/** `groups` × (job, other job, provider, service, apprenticeship, vocational, profile with skills,
 * social, security, business) = 11 records a group; values from the schema samples (`overrides`
 * on top, by entity), parents named by their place in the plan (the data layer gives the keys). */
export async function planOf(groups: number, overrides: Readonly<Record<string, Record<string, unknown>>> = {}): Promise<Plan> {
  const plan: Plan = [];
  const add = (entity: EntityShape, parentIndex?: number) => {
    const values: Record<string, unknown> = { ...sampleBody(entity), ...overrides[entity.name] };
    for (const key of entity.keyFields) delete values[key];
    if (entity === profile) delete values.prof_Reg_No; // made by the data layer from the organisation
    const field = entity.parent?.field;
    plan.push({ entity: entity.name, values, ...(field && parentIndex !== undefined ? { parent: { field, index: parentIndex } } : {}) });
    return plan.length - 1;
  };
  for (let g = 0; g < groups; g += 1) await writeUnit<number>({ record: add });
  return plan;
}

/** Saves the plan through the app's data layer, in order; answers the keys saved. */
export function collect(page: Page, plan: Plan): Promise<string[]> {
  return page.evaluate(async (steps) => {
    const handle = window.__icrs;
    if (!handle?.data) throw new Error('no support handle');
    const entities = handle.entities as unknown as Record<string, { keyFields: readonly string[] }>;
    const keys: string[] = [];
    for (const step of steps) {
      const entity = entities[step.entity];
      if (!entity) throw new Error(`no entity ${step.entity}`);
      const values = { ...step.values, ...(step.parent ? { [step.parent.field]: keys[step.parent.index] } : {}) };
      const saved = (await handle.data.create(entity as never, values)) as Record<string, unknown>;
      keys.push(String(saved[entity.keyFields[0] as string]));
    }
    return keys;
  }, plan);
}
