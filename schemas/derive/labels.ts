// Translation keys the declarations use, so the client's fr/en files can be checked for
// completeness: `entity.<name>`, `field.<entity>.<field>` (system fields: `field.system.*`)
// and `enum.<entity>.<field>.<name>`.

import type { EntityShape } from '../define.ts';
import { allFields, enumLabel } from '../define.ts';

export function translationKeys(entity: EntityShape): string[] {
  const keys = [entity.label];
  for (const [name, field] of allFields(entity)) {
    if (field.label) keys.push(field.label);
    if (field.kind === 'enum') keys.push(...field.values.map((v) => enumLabel(entity.name, name, field, v)));
  }
  return [...new Set(keys)];
}
