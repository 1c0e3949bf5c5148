// Shared and lost phones (ADR-0020): on one browser, a client's record stays with the user who
// collected or mirrored it. Another user never sees, restores, lists or uploads it; after a
// sign-out nothing of it is readable in IndexedDB, localStorage or the Cache Storage; with the
// network off the app asks for the password, refuses a wrong one and opens with the right one;
// the idle lock locks; a deactivated user's device drops the mirror and keeps pending records
// sealed. The built app in headless Chromium, against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { everythingStored, launchBrowser, newDebugPage, signIn, storeReady, unlock, type TestPage } from '../helpers/browser';
import { seriousViolations } from '../helpers/axe';
import { png } from '../helpers/records';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let browser: Browser;
let adminToken: string;
// Organisation 2 (ADC) and 3 (CAJ) of the seed lists; role 3 works with clients offline.
const userA = { userName: 'fieldA', password: 'field-password-A1', role: 3, location: 2 };
const userB = { userName: 'fieldB', password: 'field-password-B1', role: 3, location: 3 };
let idA = '';

// A's clients: one mirrored from the server, one collected offline with a photo (pending).
const mirrored = { firstName: 'Aminatou', lastName: 'Zawadisky', phone: '+243811223344' };
const collected = { firstName: 'Furaha', lastName: 'Kavirambali', phone: '+243822334455' };
const PHOTO = png(24, [201, 17, 99]);
const photoNeedle = PHOTO.toString('base64').slice(40, 100);
const DRAFT_NAME = 'Draftinabelle';
const NEEDLES = [mirrored.lastName, mirrored.phone, collected.lastName, collected.phone, DRAFT_NAME, photoNeedle];

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  ({ userId: idA } = await server.createUser(userA));
  await server.createUser(userB);
  adminToken = await server.login(server.admin.userName, server.admin.password);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

function debugPage(options: { serviceWorkers?: 'allow' | 'block' } = {}): Promise<TestPage> {
  return newDebugPage(browser, { baseURL: server.url, lang: 'en', ...options });
}

/** Everything the origin keeps in the browser, as one text (test/helpers/browser.ts). */
async function storedText(page: Page): Promise<string> {
  return (await everythingStored(page)).join('\n');
}

function found(text: string): string[] {
  return NEEDLES.filter((needle) => text.includes(needle));
}

/** A signs in, creates a client online (mirrored) and one offline with a photo (pending), and
 * starts a registration (a draft). */
async function aCollects(page: Page): Promise<void> {
  await signIn(page, userA.userName, userA.password);
  await storeReady(page);
  await page.evaluate(async (client) => {
    const { data, entities } = window.__icrs!;
    await data!.create(entities.profile, { ...client, sex: 'F', territory: 1, consent: true });
  }, mirrored);
  await page.getByRole('switch', { name: 'Offline mode' }).check();
  await page.waitForURL((url) => url.pathname === '/offlinehp');
  await storeReady(page);
  await page.evaluate(
    async ({ client, photo }) => {
      const { data, entities } = window.__icrs!;
      const bytes = Uint8Array.from(atob(photo), (c) => c.charCodeAt(0));
      await data!.create(entities.profile, { ...client, sex: 'F', territory: 1, consent: true }, [
        { slot: 'photo', blob: new Blob([bytes], { type: 'image/png' }), name: 'face.png' },
      ]);
    },
    { client: collected, photo: PHOTO.toString('base64') },
  );
  await page.goto('/profiles/add');
  await page.getByRole('textbox', { name: /^First name/ }).fill(DRAFT_NAME);
  await page.waitForTimeout(500); // the draft is written
}

async function logOutAnyway(page: Page): Promise<void> {
  if (await page.getByRole('switch', { name: 'Offline mode' }).isChecked()) {
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
  }
  await page.getByRole('button', { name: 'Log out' }).click();
  const warning = page.getByRole('alertdialog', { name: 'Log out with records not uploaded?' });
  await warning.getByText(/sealed: only you can open/).waitFor();
  await Promise.all([page.waitForEvent('load'), warning.getByRole('button', { name: 'Log out anyway' }).click()]);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

describe('one browser, two users', () => {
  it("keeps A's clients, drafts and photo from B, and unreadable after A signs out", async () => {
    const { context, page } = await debugPage();
    await aCollects(page);
    const whileSignedIn = await storedText(page);
    expect(found(whileSignedIn)).toEqual([]);
    expect(whileSignedIn).toContain('icrs.keyring.'); // the keyring is there, its keys sealed

    await logOutAnyway(page);
    expect(found(await storedText(page))).toEqual([]);

    // B signs in on the same browser: no draft of A's, none of A's clients, online or offline.
    await signIn(page, userB.userName, userB.password);
    await page.goto('/profiles/add');
    await page.getByRole('textbox', { name: /^First name/ }).waitFor();
    await expect(page.getByTestId('draft-restored').count()).resolves.toBe(0);
    await expect(page.getByRole('textbox', { name: /^First name/ }).inputValue()).resolves.toBe('');
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await expect.poll(() => page.getByTestId('offline-count-clients-value').textContent(), { timeout: 15_000 }).toBe('0');
    await page.goto('/profiles');
    await page.getByRole('grid').waitFor();
    await page.waitForTimeout(500);
    for (const name of [mirrored.lastName, collected.lastName]) await expect(page.getByText(name).count()).resolves.toBe(0);
    expect(found(await storedText(page))).toEqual([]);
    await page.getByRole('switch', { name: 'Offline mode' }).uncheck();
    await page.waitForURL((url) => url.pathname === '/');
    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Log out' }).click()]);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    // A's pending client waited, sealed: A signs in again and uploads it, once.
    await signIn(page, userA.userName, userA.password);
    await page.goto('/offlinehp');
    // The clients tile counts every waiting record of a client: the client and its photo.
    await expect.poll(() => page.getByTestId('offline-count-clients-value').textContent(), { timeout: 15_000 }).toBe('2');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await page.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor({ timeout: 30_000 });
    const token = await server.login(userA.userName, userA.password);
    const { body } = await server.api('GET', `/profile?q=${collected.lastName}`, { token });
    expect(body.total).toBe(1);
    await context.close();
  }, 180_000);
});

describe('offline unlock', () => {
  it('asks for the password after a restart with the network off, refuses a wrong one, opens with the right one, then uploads', async () => {
    const { context, page } = await debugPage({ serviceWorkers: 'allow' });
    await signIn(page, userA.userName, userA.password);
    await storeReady(page);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload(); // now controlled by the worker (online: the vault reopens by itself)
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? 'none'), { timeout: 30_000 })
      .toBe('activated');
    await storeReady(page);
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await storeReady(page);
    await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      await data!.create(entities.profile, { firstName: 'Neema', lastName: 'Restartova', sex: 'F', territory: 1, consent: true });
    });

    // The browser restarts (a new tab has no session mark) with the network off.
    await context.setOffline(true);
    await page.close();
    const restarted = await context.newPage();
    await restarted.goto('/offlinehp');
    await restarted.getByRole('heading', { name: 'This device is locked' }).waitFor();
    await restarted.getByLabel(/^Password/).fill('not-the-password');
    await restarted.getByRole('button', { name: 'Unlock' }).click();
    await restarted.getByTestId('unlock-error').getByText('Wrong password.').waitFor();
    await restarted.getByLabel(/^Password/).fill(userA.password);
    await restarted.getByRole('button', { name: 'Unlock' }).click();
    await restarted.getByRole('heading', { name: 'Offline home', level: 1 }).waitFor();
    await expect.poll(() => restarted.getByTestId('offline-count-clients-value').textContent(), { timeout: 15_000 }).not.toBe('–');

    // A reload with the network off asks again (the server cannot vouch for the tab).
    await restarted.reload();
    await restarted.getByRole('heading', { name: 'This device is locked' }).waitFor();
    await restarted.getByLabel(/^Password/).fill(userA.password);
    await restarted.getByRole('button', { name: 'Unlock' }).click();
    await restarted.getByRole('heading', { name: 'Offline home', level: 1 }).waitFor();

    // Back online: unlocked offline, the device holds no session token, so the upload's first
    // call brings the lock screen, whose password signs in again; the pending client uploads, once.
    await context.setOffline(false);
    await Promise.all([restarted.waitForEvent('load'), restarted.getByRole('button', { name: 'Upload Data online' }).click()]);
    await unlock(restarted, userA.password);
    await restarted.getByRole('heading', { name: 'Offline home', level: 1 }).waitFor();
    await restarted.getByRole('button', { name: 'Upload Data online' }).click();
    await restarted.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor({ timeout: 30_000 });
    const token = await server.login(userA.userName, userA.password);
    expect((await server.api('GET', '/profile?q=Restartova', { token })).body.total).toBe(1);
    await context.close();
  }, 180_000);

  it('locks after the idle delay and the lock button, and unlocks with the password', async () => {
    const { context, page } = await debugPage();
    await page.clock.install();
    await signIn(page, userA.userName, userA.password);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    // 15 minutes (the default of LOCK_AFTER_MINUTES) without a touch.
    await Promise.all([page.waitForEvent('load'), page.clock.fastForward('16:00')]);
    await page.getByRole('heading', { name: 'This device is locked' }).waitFor();
    await page.getByLabel(/^Password/).fill(userA.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Lock', exact: true }).click()]);
    await page.getByRole('heading', { name: 'This device is locked' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel(/^Password/).fill(userA.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await context.close();
  }, 120_000);
});

describe('a deactivated account', () => {
  it("drops the device's mirror and drafts, keeps the pending records sealed, and gives them back once reactivated", async () => {
    const { context, page } = await debugPage();
    await signIn(page, userA.userName, userA.password);
    await storeReady(page);
    const mirroredKey = await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      return (await data!.create(entities.profile, { firstName: 'Mirrora', lastName: 'Deactivska', sex: 'F', territory: 1, consent: true }))
        .prof_Id as string;
    });
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await storeReady(page);
    const pendingKey = await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      return (await data!.create(entities.profile, { firstName: 'Pendra', lastName: 'Waitinghere', sex: 'F', territory: 1, consent: true }))
        .prof_Id as string;
    });
    const storedKeys = () =>
      page.evaluate(async () => {
        const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => /^rxdb-dexie-icrs_db-.*--tbl_profiles$/.test(n));
        const keys: string[] = [];
        for (const name of names) {
          const db = await new Promise<IDBDatabase>((resolve) => {
            const request = indexedDB.open(name);
            request.onsuccess = () => resolve(request.result);
          });
          const rows = await new Promise<Record<string, unknown>[]>((resolve) => {
            const request = db.transaction('docs').objectStore('docs').getAll();
            request.onsuccess = () => resolve(request.result as Record<string, unknown>[]);
          });
          keys.push(...rows.filter((r) => r._deleted !== '1' && r._deleted !== true).map((r) => String(r.prof_Id)));
          db.close();
        }
        return keys;
      });
    await expect.poll(storedKeys, { timeout: 15_000 }).toEqual(expect.arrayContaining([mirroredKey, pendingKey]));

    // Deactivated: the next page load that reaches the server signs A out.
    expect((await server.api('PUT', `/users/${idA}`, { token: adminToken, body: { active: false } })).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 20_000 });
    await page.getByText(/Your account is deactivated/).waitFor();
    await expect.poll(storedKeys, { timeout: 15_000 }).toEqual([pendingKey]);
    const text = await storedText(page);
    for (const name of ['Deactivska', 'Waitinghere', 'Mirrora', 'Pendra']) expect(text).not.toContain(name);

    // Reactivated, A signs in again: the pending record is there and uploads.
    expect((await server.api('PUT', `/users/${idA}`, { token: adminToken, body: { active: true } })).status).toBe(200);
    await signIn(page, userA.userName, userA.password);
    await page.goto('/offlinehp');
    await page.getByTestId('offline-total').getByText('1 record is waiting to be uploaded.').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await page.getByTestId('offline-total').getByText('No record is waiting to be uploaded.').waitFor({ timeout: 30_000 });
    const token = await server.login(userA.userName, userA.password);
    expect((await server.api('GET', '/profile?q=Waitinghere', { token })).body.total).toBe(1);
    await context.close();
  }, 180_000);
});

describe('an account moved to another organisation', () => {
  it("drops the former organisation's mirror and holds back the records collected for it", async () => {
    const mover = { userName: 'fieldMover', password: 'field-password-M1', role: 3, location: 2 };
    const { userId } = await server.createUser(mover);
    const { context, page } = await debugPage();
    await signIn(page, mover.userName, mover.password);
    await storeReady(page);
    await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      await data!.create(entities.profile, { firstName: 'Formerorg', lastName: 'Mirroredclient', sex: 'F', territory: 1, consent: true });
    });
    await page.getByRole('switch', { name: 'Offline mode' }).check();
    await page.waitForURL((url) => url.pathname === '/offlinehp');
    await storeReady(page);
    await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      await data!.create(entities.profile, { firstName: 'Heldback', lastName: 'Collectedbefore', sex: 'F', territory: 1, consent: true });
    });
    const profiles = () =>
      page.evaluate(async () => {
        const { db } = window.__icrs!;
        return (await db.collections.tbl_profiles.find().exec()).map((d) => `${d.get('lastName')}:${d.get('syncState')}`).sort();
      });
    // The mirror holds organisation 2's clients (the other tests' too) and the one collected here.
    await expect.poll(profiles, { timeout: 15_000 }).toEqual(expect.arrayContaining(['Collectedbefore:pending', 'Mirroredclient:synced']));

    // An administrator moves the account to organisation 3; the next load that reaches the server
    // sees it. That load is the client list's own address, which reads its collection early
    // (ADR-0035): not one name of the former organisation's mirror may be drawn before it goes.
    expect((await server.api('PUT', `/users/${userId}`, { token: adminToken, body: { location: 3 } })).status).toBe(200);
    await page.addInitScript(() => {
      const seen = window as unknown as { __formerDrawn: boolean };
      seen.__formerDrawn = false;
      new MutationObserver(() => {
        if (document.body?.textContent?.includes('Mirroredclient')) seen.__formerDrawn = true;
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.goto('/profiles');
    await page.getByText('Your account now belongs to another organisation').first().waitFor({ timeout: 20_000 });
    await storeReady(page);
    await expect.poll(profiles, { timeout: 15_000 }).toEqual(['Collectedbefore:pending']);
    await page.getByRole('grid').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __formerDrawn: boolean }).__formerDrawn)).toBe(false);
    await page.goto('/offlinehp');
    await page.getByRole('button', { name: 'Upload Data online' }).click();
    await page
      .getByText(/1 record collected for your former organisation waits on this device/)
      .first()
      .waitFor();
    const token = await server.login(mover.userName, mover.password);
    expect((await server.api('GET', '/profile?q=Collectedbefore', { token })).body.total).toBe(0);
    await context.close();
  }, 120_000);
});
