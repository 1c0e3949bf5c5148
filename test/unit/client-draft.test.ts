// A client's draft against the client as stored: which steps it changed. A section edit opened
// over a draft that changed other steps shows the whole draft, so that its save loses nothing
// (docs/adr/0048-first-day-screens.md "A section edit never hides a draft").
import { describe, expect, it } from 'vitest';
import { changedSteps, freshClientDraft, type StoredClient } from '../../src/features/clients/clientDraft';

const stored: StoredClient = {
  profile: { prof_Id: 'p1', firstName: 'Amani', lastName: 'Kahindo', address: 'Goma', updatedAt: '2026-01-01T00:00:00.000Z' },
  records: { social: { maritalStatus: 'married', dependants: 3, updatedAt: '2026-01-01T00:00:00.000Z' } },
};

describe('the steps a client draft changed', () => {
  it('are none for the client as stored', () => {
    expect(changedSteps(freshClientDraft(stored, 'p1'), stored)).toEqual([]);
  });

  it('are the identity and the record changed, in the form order', () => {
    const reg = freshClientDraft(stored, 'p1');
    const changed = {
      ...reg,
      identity: { ...reg.identity, address: 'Bukavu' },
      parts: { ...reg.parts, social: { ...reg.parts.social, dependants: 5 } },
    };
    expect(changedSteps(changed, stored)).toEqual(['identity', 'social']);
  });

  it('count a record added or left out, the services, and files picked or removed', () => {
    const reg = freshClientDraft(stored, 'p1');
    const changed = { ...reg, included: ['skills' as const], bsp: { appr: [], orgHelp: [{ tbl_Id: 1 }] }, removeFiles: [] };
    expect(changedSteps(changed, stored)).toEqual(['services', 'skills', 'social']);
    expect(changedSteps(reg, stored, 1)).toEqual(['files']);
    expect(changedSteps({ ...reg, removeFiles: ['photo'] }, stored)).toEqual(['files']);
  });
});
