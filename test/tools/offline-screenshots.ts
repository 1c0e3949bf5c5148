// Screenshots of the offline screens for a person to look at: 360 px and 1280 px, light and
// dark, French and English, before and after an upload that partly fails, the pending list, the
// unsent banner and the reset and log-out warnings (docs/adr/0023-offline-home.md). A tool, not a
// test: build first (`npx vite build`), then
//   npx tsx test/tools/offline-screenshots.ts /tmp/icrs-shots
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, signIn } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

const field = { userName: 'field4', password: 'field-password-4', role: 4, location: 2 };

async function photograph(server: TestServer, browser: Browser, dir: string): Promise<void> {
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });

  for (const { width, theme, lang } of [
    { width: 360, theme: 'light', lang: 'en' },
    { width: 360, theme: 'dark', lang: 'fr' },
    { width: 1280, theme: 'dark', lang: 'en' },
    { width: 1280, theme: 'light', lang: 'fr' },
  ] as const) {
    console.log(`${width} px, ${theme}, ${lang}`);
    const { context, page } = await newPage(browser, { baseURL: server.url, lang, viewport: { width, height: 800 } });
    await context.addInitScript((t) => {
      localStorage.setItem('icrsDebug', '1');
      localStorage.setItem('theme', t);
    }, theme);
    await signIn(page, field.userName, field.password);
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      await data!.create(entities.job, { title: 'Mason wanted in Goma', employer: 'Employer Ltd', sector: 1, territory: 1 });
    });
    await page.evaluate(() => localStorage.setItem('mode', 'offline'));
    await page.goto('/offlinehp');
    await page.waitForFunction(() => Boolean(window.__icrs?.data));
    await page.evaluate(async () => {
      const { data, entities } = window.__icrs!;
      await data!.create(entities.job, { title: 'Driver, 3 months contract', employer: 'Transports Kivu', sector: 1, territory: 1 });
      const provider = await data!.create(entities.serviceProvider, { sp_Name: 'Centre Espoir', sp_type: 1, territory: 1 });
      await data!.create(entities.service, {
        sp_Id: provider.sp_Id,
        name: 'Psychosocial counselling',
        category: 1,
        serviceType: 1,
        territory: 1,
      });
      const orphan = await data!.create(entities.service, {
        sp_Id: '01900000-0000-7000-8000-00000000dead',
        name: 'Orphan service',
        category: 1,
        serviceType: 1,
        territory: 1,
      });
      await data!.create(entities.apprenticeship, { sp_d_Id: orphan.sp_Detail_Id, trade: 1 });
      await data!.create(entities.profile, { firstName: 'Amina', lastName: 'Kahindo', sex: 'F', territory: 1, consent: true });
    });
    const tag = `${width}-${theme}-${lang}`;
    await page.getByTestId('offline-count-jobs-value').getByText('1').waitFor();
    await shot(page, `offlinehp-before-${tag}`);

    // Upload (partly failing), then the screens again.
    await page.evaluate(() => localStorage.setItem('mode', 'online'));
    await page.goto('/offlinehp');
    await page.getByTestId('offline-count-jobs-value').waitFor();
    await page.getByRole('button', { name: /^(Upload Data online|Envoyer les données en ligne)$/ }).click();
    await page.getByTestId('upload-summary').waitFor({ timeout: 15_000 }); // the run ended (partly failed: the bar stays below 100%)
    await page.waitForTimeout(600);
    await shot(page, `offlinehp-after-${tag}`);

    await page.goto('/offlinehp/pending');
    await page.getByTestId('pending-row').first().waitFor();
    await page.waitForTimeout(300);
    await shot(page, `pending-${tag}`);

    await page.goto('/');
    await page.getByTestId('unsent-banner').waitFor();
    await shot(page, `home-banner-${tag}`);

    await page.goto('/offlinehp');
    await page.getByRole('button', { name: /^(Reset Database|Réinitialiser la base)$/ }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^(Reset Database|Réinitialiser la base)$/ })
      .click();
    await page.getByRole('alertdialog').waitFor();
    await page.waitForTimeout(400);
    await shot(page, `reset-warning-${tag}`);
    await page
      .getByRole('alertdialog')
      .getByRole('button', { name: /^(Cancel|Annuler)$/ })
      .click();

    await page.getByRole('button', { name: /^(Log out|Se déconnecter)$/ }).click();
    await page.getByRole('alertdialog').waitFor();
    await page.waitForTimeout(400);
    await shot(page, `logout-warning-${tag}`);
    await context.close();
  }
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npx tsx test/tools/offline-screenshots.ts <folder>');
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
try {
  await server.createUser(field);
  await photograph(server, browser, dir);
  console.log(`screenshots in ${dir}`);
} finally {
  await browser.close();
  await server.close();
}
