// Makes the app's install icons (public/icons/*.png) from its one drawing, with Chromium:
// 192 and 512 px with rounded corners ("any"), and a 512 px maskable one whose figure stays in
// the central 80 % safe zone on a full-bleed background (Android crops it to a circle or a
// squircle). Run once after the drawing changes: `npx tsx scripts/make-icons.ts`; the PNGs are
// committed, so a build needs no browser.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const FIGURE = readFileSync('public/favicon.svg', 'utf8');

/** The maskable variant: the same figure, 80 % of the size, on a square background. */
const MASKABLE = FIGURE.replace('viewBox="0 0 64 64"', 'viewBox="-8 -8 80 80"').replace(
  '<rect width="64" height="64" rx="12" fill="#1e3a5f"/>',
  '<rect x="-8" y="-8" width="80" height="80" fill="#1e3a5f"/>',
);

const ICONS = [
  { file: 'icon-192.png', size: 192, svg: FIGURE, transparent: true },
  { file: 'icon-512.png', size: 512, svg: FIGURE, transparent: true },
  { file: 'maskable-512.png', size: 512, svg: MASKABLE, transparent: false },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox'],
});
const page = await browser.newPage();
for (const icon of ICONS) {
  await page.setViewportSize({ width: icon.size, height: icon.size });
  const svg = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.screenshot({ path: `public/icons/${icon.file}`, omitBackground: icon.transparent });
  console.log(`public/icons/${icon.file}: ${icon.size}×${icon.size}`);
}
await browser.close();
