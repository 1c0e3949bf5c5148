// `npm run help:screenshots`: the screenshots of the help pages (help/en, help/fr), made from the
// built app in headless Chromium and stored as WebP in public/help/{lang}/. The images are
// committed, so the help is complete without running this; run it again after a screen changes
// (`npm run build` first: it serves dist/). Names after `--` make only those screenshots.
//
// It starts the server on an in-memory database with the demo data (fixed seed, so the pictures
// only change when the screens do), signs in as the first administrator, and photographs each
// screen in French and in English. Chromium encodes the WebP itself (canvas.toDataURL), so no
// image library is needed.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { buildApp } from '../server/app';
import { configFromEnv } from '../server/config';
import { seedDemo } from '../server/seed/demo';
import { hashPassword, randomPassword } from '../server/lib/passwords';
import { insertUser } from '../server/plugins/users/store';
import { uuidv7 } from '../schemas/ids';
import { HELP_SCREENSHOTS, HELP_IMAGE_WIDTH, type HelpScreenshot } from '../src/features/help/screenshots';

const ADMIN = { userName: 'admin', password: 'help-screens-2026' };
/** A few accounts, so the user list looks like an organisation's. */
const DEMO_STAFF = [
  { userName: 'amani.k', fullName: 'Amani Kahindo', role: 4, location: 1, email: 'amani.k@example.org' },
  { userName: 'neema.b', fullName: 'Neema Bahati', role: 3, location: 1 },
  { userName: 'jp.mukendi', fullName: 'Jean-Pierre Mukendi', role: 7, location: 2, phone: '+243 970 000 111' },
  { userName: 'reports', fullName: 'Furaha Reports', role: 2, location: 0 },
  { userName: 'old.account', fullName: 'Former Colleague', role: 5, location: 2, active: false },
];
const VIEWPORT = { width: 1100, height: 680 };
const QUALITY = 0.6;
const OUT = path.resolve('public/help');

/** The PNG of the page, re-encoded by Chromium as a WebP `HELP_IMAGE_WIDTH` wide. */
async function webp(page: Page, png: Buffer): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    async ({ base64, width, quality }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = Math.round((image.height * width) / image.width);
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d canvas');
      context.imageSmoothingQuality = 'high';
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL('image/webp', quality);
    },
    { base64: png.toString('base64'), width: HELP_IMAGE_WIDTH, quality: QUALITY },
  );
  return Buffer.from(dataUrl.split(',')[1] ?? '', 'base64');
}

/** How long nothing in the window may load before the picture: a live list reloads at each
 * change (its refreshing bar, listParts.tsx), which can come just after the first load ends. */
const QUIET_MS = 1_000;

/** The loading signs of a screen. The offline home's progress bar is part of the screen, not a load. */
const busySelector = (offline: boolean) =>
  offline ? '.MuiSkeleton-root, .MuiCircularProgress-root' : '.MuiSkeleton-root, .MuiLinearProgress-root, .MuiCircularProgress-root';

/** The loading signs inside the window (run in the page). Only these count: a map or chart further
 * down starts only once scrolled near (LazyMap's and CountBarChart's `whenShown`), so its
 * placeholder below the fold stays, by design, and is not in the picture. One in the window must
 * go (a map without WebGL shows its message instead, LazyMap). */
const inWindow = (selector: string) =>
  [...document.querySelectorAll(selector)]
    .filter((el) => {
      const box = el.getBoundingClientRect();
      return box.bottom > 0 && box.right > 0 && box.top < window.innerHeight && box.left < window.innerWidth;
    })
    .map((el) => el.outerHTML.slice(0, 160));

/** Waits until nothing in the picture has been loading for `QUIET_MS`. */
async function settle(page: Page, offline: boolean): Promise<void> {
  const busy = busySelector(offline);
  await page.locator('h1').first().waitFor();
  await page.mouse.move(VIEWPORT.width - 5, VIEWPORT.height - 5);
  await page.evaluate(`window.__helpInWindow = ${inWindow.toString()}; window.__helpQuietSince = null;`);
  await page
    .waitForFunction(
      ({ selector, quietMs }) => {
        const w = window as unknown as { __helpInWindow: typeof inWindow; __helpQuietSince: number | null };
        if (w.__helpInWindow(selector).length > 0) w.__helpQuietSince = null;
        else w.__helpQuietSince ??= performance.now();
        return w.__helpQuietSince !== null && performance.now() - w.__helpQuietSince >= quietMs;
      },
      { selector: busy, quietMs: QUIET_MS },
      { timeout: 60_000, polling: 100 },
    )
    .catch(async (error: unknown) => {
      // Say what kept loading, and where: a timeout alone names neither.
      const still = await page.evaluate(inWindow, busy);
      throw new Error(`${page.url()}: still loading after 60 s: ${still.join(' | ')}`, { cause: error });
    });
}

/**
 * Takes the toasts off the page before the picture (the sign-in's "Connected", a sync notice):
 * they come and go with timing, not with the screen. An error toast is a fault, not a passing
 * notice: the script stops and says it rather than photograph around it.
 */
async function removeToasts(page: Page): Promise<void> {
  const removed = await page.evaluate(() => {
    const toasts = [...document.querySelectorAll('.notistack-SnackbarContainer .notistack-MuiContent')];
    const texts = toasts.map((t) => `${t.classList.contains('notistack-MuiContent-error') ? 'error: ' : ''}${t.textContent ?? ''}`);
    for (const container of document.querySelectorAll('.notistack-SnackbarContainer')) container.remove();
    return texts;
  });
  const errors = removed.filter((t) => t.startsWith('error: '));
  if (errors.length > 0) throw new Error(`${page.url()}: error toast on the screen: ${errors.join(' | ')}`);
  if (removed.length > 0) console.log(`  (toast taken off: ${removed.join(' | ')})`);
}

async function shoot(page: Page, shot: HelpScreenshot, lang: string): Promise<number> {
  await page.goto(shot.path);
  if (shot.prepare === 'openSidebar') await page.getByRole('button', { name: /^(Open menu|Ouvrir le menu)$/ }).click();
  if (shot.prepare === 'offline') await page.evaluate(() => localStorage.setItem('mode', 'offline'));
  if (shot.prepare === 'offline') await page.reload();
  // A load that starts between the wait and the picture (a list's reload) is in the picture: take it again.
  let png: Buffer | undefined;
  for (let attempt = 1; !png; attempt++) {
    await settle(page, shot.prepare === 'offline');
    await removeToasts(page);
    const taken = await page.screenshot({ type: 'png' });
    const loading = await page.evaluate(inWindow, busySelector(shot.prepare === 'offline'));
    if (loading.length === 0) png = taken;
    else if (attempt === 3) throw new Error(`${page.url()}: loading again at each of 3 pictures: ${loading.join(' | ')}`);
  }
  if (shot.prepare === 'offline') await page.evaluate(() => localStorage.setItem('mode', 'online'));
  const image = await webp(page, png);
  mkdirSync(path.join(OUT, lang), { recursive: true });
  writeFileSync(path.join(OUT, lang, `${shot.name}.webp`), image);
  return image.length;
}

/** `npm run help:screenshots -- users reports`: only the screenshots named; all without names. */
const ONLY = new Set(process.argv.slice(2));
const wanted = (shot: HelpScreenshot) => ONLY.size === 0 || ONLY.has(shot.name);

async function main(): Promise<void> {
  if (!existsSync('dist/index.html')) throw new Error('Build the app first: npm run build');
  const config = {
    ...configFromEnv({}),
    dataDir: 'memory://',
    host: '127.0.0.1',
    adminUserName: ADMIN.userName,
    adminPassword: ADMIN.password,
    logLevel: 'silent',
  };
  const server = await buildApp(config);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const [admin] = await server.db.query<{ userId: string }>('SELECT "userId" FROM "users" WHERE "userName" = $1', [ADMIN.userName]);
  await seedDemo(server.db, { scale: 0.3, seed: 14, createdBy: admin?.userId ?? null });
  for (const person of DEMO_STAFF) {
    await insertUser(server.db, {
      ...person,
      userId: uuidv7(),
      passwordHash: await hashPassword(randomPassword()),
      createdBy: admin?.userId ?? null,
    });
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const lang of ['fr', 'en'] as const) {
      const context = await browser.newContext({ baseURL: url, viewport: VIEWPORT, serviceWorkers: 'block' });
      await context.addInitScript((l) => localStorage.getItem('lang') || localStorage.setItem('lang', l), lang);
      const page = await context.newPage();
      for (const shot of HELP_SCREENSHOTS.filter((s) => !s.signedIn && wanted(s)))
        console.log(`${lang}/${shot.name}.webp ${await shoot(page, shot, lang)} bytes`);
      await page.goto('/login');
      await page.getByLabel(/^(Username|Nom d'utilisateur)/).fill(ADMIN.userName);
      await page
        .getByLabel(/^(Password|Mot de passe)/)
        .first()
        .fill(ADMIN.password);
      await Promise.all([
        page.waitForURL((u) => u.pathname !== '/login'),
        page.getByRole('button', { name: /^(Login|Se connecter)$/ }).click(),
      ]);
      for (const shot of HELP_SCREENSHOTS.filter((s) => s.signedIn && wanted(s)))
        console.log(`${lang}/${shot.name}.webp ${await shoot(page, shot, lang)} bytes`);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
