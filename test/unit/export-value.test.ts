// A yes/no question in a CSV export: "—" when nobody answered it, never an empty or a "No"
// (docs/adr/0045-three-state-booleans.md: a question left unanswered is not a "no"), and the answer's label otherwise.
import { describe, expect, it } from 'vitest';
import { profile, security, social } from '../../schemas/entities/profiles';
import { exportValue, type DisplayContext } from '../../src/components/entity/fields';
import { messages } from './components/render';

const contextOf = (lang: 'fr' | 'en'): DisplayContext => ({ lang, lists: null, t: (id) => messages[lang][id] ?? id });

describe('a yes/no answer in a CSV cell', () => {
  it.each(['fr', 'en'] as const)('reads — when unanswered, and Yes or No as answered (%s)', (lang) => {
    const ctx = contextOf(lang);
    for (const [entity, name] of [
      [profile, 'disability'],
      [security, 'feelsSafe'],
      [security, 'hasIdDocument'],
      [social, 'householdHead'],
    ] as const) {
      expect(exportValue(entity, name, null, ctx)).toBe('—');
      expect(exportValue(entity, name, undefined, ctx)).toBe('—');
      expect(exportValue(entity, name, true, ctx)).toBe(messages[lang]['entityGrid.yes']);
      expect(exportValue(entity, name, false, ctx)).toBe(messages[lang]['entityGrid.no']);
    }
    expect(messages[lang]['entityGrid.no']).not.toBe('—');
  });
});
