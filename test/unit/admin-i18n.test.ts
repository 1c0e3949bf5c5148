// ADR-0030: role names come from one place. The user forms, grid and filters read them as the
// enum labels of user.role (enum.user.role.N); the sidebar and dialogs as role.N. Both must say
// the same in both languages.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flatten, type Catalog } from '../../src/lib/session/i18n';
import { ROLES } from '../../schemas/roles';
import { LOOKUP_KEYS } from '../../schemas/define';

describe.each(['fr', 'en'])('the %s catalog', (lang) => {
  const catalog = flatten(JSON.parse(readFileSync(`public/assets/i18n/${lang}.json`, 'utf8')) as Catalog);

  it('names each role the same as a role and as a user field value', () => {
    for (const role of ROLES) expect(catalog[`enum.user.role.${role}`], `role ${role}`).toBe(catalog[`role.${role}`]);
  });

  it('names every lookup list of the list screen', () => {
    for (const key of LOOKUP_KEYS) expect(catalog[`lists.name.${key}`], key).toBeTruthy();
  });
});
