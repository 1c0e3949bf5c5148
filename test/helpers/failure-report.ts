// What a failed browser test leaves to read: a failure seen once on a loaded CI must be
// understood from its log, since it may not come back on a quiet machine. Every page the tests
// open (test/helpers/browser.ts newPage) is watched for its console errors, uncaught errors and
// failed requests; when a test fails, each page still open is described: its address, the text
// it shows and what went wrong in it.
import { beforeEach } from 'vitest';
import type { Page } from 'playwright-core';

const KEPT_EVENTS = 30;
const SHOWN_TEXT = 2_000;
const DESCRIBE_TIMEOUT_MS = 5_000;

const watched = new Map<Page, string[]>();

/** Keeps `page`'s troubles until it closes, for the report of a failed test. */
export function watchPage(page: Page): void {
  const events: string[] = [];
  const keep = (event: string) => {
    events.push(`${new Date().toISOString().slice(11, 23)} ${event}`);
    if (events.length > KEPT_EVENTS) events.shift();
  };
  watched.set(page, events);
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') keep(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => keep(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => keep(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('close', () => watched.delete(page));
}

async function describePage(page: Page, events: string[]): Promise<string> {
  const shown = await Promise.race([
    page.evaluate(() => document.body?.innerText ?? '').catch((error: unknown) => `(unreadable: ${String(error)})`),
    new Promise<string>((resolve) => setTimeout(() => resolve('(the page did not answer)'), DESCRIBE_TIMEOUT_MS)),
  ]);
  return [
    `page ${page.url()}`,
    `shows: ${shown.replace(/\s+/g, ' ').slice(0, SHOWN_TEXT)}`,
    ...(events.length ? ['events:', ...events.map((e) => `  ${e}`)] : ['events: none']),
  ].join('\n');
}

/** Installed for every browser test file (vitest.browser.config.ts setupFiles). */
export function reportPagesOnFailure(): void {
  beforeEach((context) => {
    context.onTestFailed(async () => {
      for (const [page, events] of watched) {
        console.log(`[failed test: ${context.task.name}]\n${await describePage(page, events)}`);
      }
    });
  });
}
