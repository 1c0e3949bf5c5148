// @vitest-environment jsdom
// An erasure's entry on the audit screen (docs/security.md "What an erasure does"): the reason's
// code by its name in the user's language, the note after it; any other note as written.
import { describe, expect, it } from 'vitest';
import { noteText } from '../../../src/features/audit/describe';
import { messages, type Lang } from './render';

const t = (lang: Lang) => (id: string) => messages[lang][id] ?? id;

describe('noteText', () => {
  it("names an erasure's reason code, in English and in French, and keeps its note", () => {
    const erase = (note: string) => ({ action: 'erase', note });
    expect(noteText(erase('consentWithdrawn: Letter received at the office'), t('en'))).toBe(
      'Consent withdrawn: Letter received at the office',
    );
    expect(noteText(erase('clientRequest'), t('fr'))).toBe('Demande du client');
    expect(noteText(erase('legalObligation: Décision du tribunal'), t('fr'))).toBe('Obligation légale: Décision du tribunal');
    // Entries made before the list (free text), and notes of other actions, as written.
    expect(noteText(erase('… … asked in writing'), t('en'))).toBe('… … asked in writing');
    expect(noteText({ action: 'delete', note: 'duplicate: of another centre' }, t('en'))).toBe('duplicate: of another centre');
  });
});
