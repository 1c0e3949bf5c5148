// A record's history as a reader sees it (src/features/audit/story.ts): changes only, the
// screen's fields, views of a file counted together, every follow-up with its note.
import { describe, expect, it } from 'vitest';
import { storyOf } from '../../src/features/audit/story';
import type { AuditEntry } from '../../src/features/audit/types';

let n = 0;
function entry(over: Partial<AuditEntry>): AuditEntry {
  n += 1;
  return {
    id: `e${String(1000 - n)}`,
    at: new Date(Date.UTC(2026, 0, 1, 12, 0, 60 - n)).toISOString(),
    deviceAt: null,
    userId: 'u1',
    userName: 'amina',
    role: 3,
    userLocation: 1,
    location: 1,
    action: 'update',
    entity: 'profile',
    recordId: 'p1',
    clientId: 'p1',
    fields: [],
    changes: null,
    note: null,
    ...over,
  };
}

describe('storyOf', () => {
  it('leaves out an update that changed nothing a reader can see', () => {
    const items = storyOf([
      entry({ fields: [] }),
      entry({ fields: ['updatedAt'], changes: { updatedAt: { before: 'a', after: 'b' } } }),
      entry({ fields: ['phone'], changes: { phone: { before: '+243 1', after: '+243 1' } } }),
      entry({ fields: ['phone'], changes: { phone: { before: '+243 1', after: '+243 2' } } }),
      entry({ action: 'create', fields: ['prof_Id', 'firstName', 'lastName'] }),
    ]);
    expect(items.map((i) => [i.entry.action, i.fields])).toEqual([
      ['update', ['phone']],
      ['create', ['firstName', 'lastName']],
    ]);
  });

  it('names no bookkeeping field of a file record ("Deleted, Kind, File name")', () => {
    const items = storyOf([
      entry({ entity: 'profileImage', fields: ['deleted', 'img_for', 'name'] }),
      entry({ action: 'image.add', entity: 'profileImage', fields: ['img_for', 'name'], note: 'photo.jpg' }),
    ]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ entry: { action: 'image.add' }, fields: [] });
  });

  it('counts the views of one file as one item, at the place of the last view', () => {
    const items = storyOf([
      entry({ action: 'file.download', entity: 'profileImage', recordId: 'img1', note: 'photo.jpg' }),
      entry({ fields: ['phone'], changes: { phone: { before: '1', after: '2' } } }),
      entry({ action: 'file.download', entity: 'profileImage', recordId: 'img1', note: 'photo.jpg' }),
      entry({ action: 'file.download', entity: 'profileImage', recordId: 'img2', note: 'id-card.pdf' }),
      entry({ action: 'file.download', entity: 'profileImage', recordId: 'img1', note: 'photo.jpg' }),
    ]);
    expect(items.map((i) => [i.entry.action, i.entry.recordId, i.count])).toEqual([
      ['file.download', 'img1', 3],
      ['update', 'p1', 1],
      ['file.download', 'img2', 1],
    ]);
  });

  it('keeps a referral follow-up that changed no status, with its note', () => {
    const items = storyOf([
      entry({
        entity: 'referral',
        recordId: 'r1',
        fields: ['feedback'],
        changes: { feedback: { before: null, after: 'Called, no answer' } },
      }),
    ]);
    expect(items).toEqual([expect.objectContaining({ followUp: 'Called, no answer', fields: ['feedback'] })]);
  });
});
