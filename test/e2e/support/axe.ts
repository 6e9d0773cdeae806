// axe-core in a page of a real Chromium: the serious and critical accessibility violations it finds (the admin
// pages must have none). Injected through the DevTools protocol, which the page's CSP does not govern.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

/** "<rule id>: <help>" for every serious or critical violation on `page`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string | null; help: string }> }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.help}`);
}
