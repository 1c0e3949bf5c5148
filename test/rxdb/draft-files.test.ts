// Files picked in an unsaved registration (src/lib/vault/draftFiles.ts): sealed in the user's
// drafts database over fake-indexeddb. Writes of one draft land in the order they were asked,
// whatever each one's sealing costs, so the last pick is what a reload brings back.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDraftFiles, keepDraftFiles, loadDraftFiles, removeDraftFiles } from '../../src/lib/vault/draftFiles';
import { lockVault } from '../../src/lib/vault/vault';
import { openTestVault } from '../helpers/rxdb';

const USER = 'drafts-user';
beforeEach(() => openTestVault(USER));
afterEach(async () => {
  await removeDraftFiles(USER);
  lockVault();
});

/** A file whose bytes take `ms` to read, like a large photo being sealed. */
function slowFile(text: string, type: string, ms: number): Blob {
  const blob = new Blob([text], { type });
  return {
    type,
    arrayBuffer: () => new Promise<ArrayBuffer>((resolve) => setTimeout(() => resolve(blob.arrayBuffer()), ms)),
  } as unknown as Blob;
}

const names = async (draft: string) => (await loadDraftFiles(draft)).map((f) => `${f.slot}:${f.name}`).sort();

describe('draft files', () => {
  it('keep the files of the last pick when an earlier, slower write is still sealing', async () => {
    const first = keepDraftFiles('reg-1', [{ slot: 'photo', name: 'face.png', blob: slowFile('png', 'image/png', 80) }]);
    const second = keepDraftFiles('reg-1', [
      { slot: 'photo', name: 'face.png', blob: new Blob(['png'], { type: 'image/png' }) },
      { slot: 'idDocument', name: 'id-card.pdf', blob: new Blob(['%PDF'], { type: 'application/pdf' }) },
    ]);
    await Promise.all([first, second]);
    expect(await names('reg-1')).toEqual(['idDocument:id-card.pdf', 'photo:face.png']);
    const document = (await loadDraftFiles('reg-1')).find((f) => f.slot === 'idDocument');
    expect(await document?.blob.text()).toBe('%PDF');
  });

  it('stay cleared when the clear is asked after a write still sealing', async () => {
    const write = keepDraftFiles('reg-2', [{ slot: 'photo', name: 'face.png', blob: slowFile('png', 'image/png', 80) }]);
    const clear = clearDraftFiles('reg-2');
    await Promise.all([write, clear]);
    expect(await names('reg-2')).toEqual([]);
  });

  it('belong to their draft: clearing one leaves the other', async () => {
    await keepDraftFiles('reg-3', [{ slot: 'photo', name: 'a.png', blob: new Blob(['a'], { type: 'image/png' }) }]);
    await keepDraftFiles('reg-4', [{ slot: 'photo', name: 'b.png', blob: new Blob(['b'], { type: 'image/png' }) }]);
    await clearDraftFiles('reg-3');
    expect(await names('reg-3')).toEqual([]);
    expect(await names('reg-4')).toEqual(['photo:b.png']);
  });
});
