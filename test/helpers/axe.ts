// Accessibility check of the page as it is now, with axe-core run inside the page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

// Evaluated through the debugging protocol rather than added as a <script>: the app's
// Content-Security-Policy (script-src 'self') rightly refuses inline scripts.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Waits for transitions to end (a dialog fading in is half transparent, and axe would measure
 * its colours mid-way); endless animations such as spinners are not waited for. */
async function settledAnimations(page: Page): Promise<void> {
  await page.waitForFunction(
    () => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    undefined,
    { timeout: 5_000 },
  );
}

/** The serious and critical violations axe finds on the page (WCAG 2.1 A/AA rules), once its
 * transitions have ended. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await settledAnimations(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** Fails the test with axe's findings (labelled `what`) when the page has serious violations. */
export async function expectAxeClean(page: Page, what?: string): Promise<void> {
  expect(await seriousViolations(page), what).toEqual([]);
}
