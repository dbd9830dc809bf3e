import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForSettled } from './accessibility';
import { navigation } from './support';

/**
 * The page grown to its full height, so a full-page capture shows the side navigation whole: on a
 * page taller than the window, a capture would cut the fixed navigation off, which no user ever sees.
 */
export async function growToPage(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1440, height: Math.max(900, height) });
  // The side navigation follows the new height with a short transition; let it finish.
  await expect
    .poll(async () => {
      const box = await navigation(page).boundingBox();
      return box && Math.round(box.y + box.height);
    })
    .toBe(Math.max(900, height));
}

/**
 * Where screenshots go for a person to look at: $E2E_SHOTS, else a folder in the temp directory.
 * Never the repository, so a test run leaves the tree as it found it.
 */
export const SCREENSHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), 'leadex-e2e-screenshots');

/** Captures the page (or one element of it) as SCREENSHOTS/{name}.png. */
export async function screenshot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await target.screenshot({ path: join(SCREENSHOTS, `${name}.png`), ...options });
}

/**
 * Captures the whole page, side navigation included, once its requests have settled. The viewport
 * stays grown to the page's height: a test that goes on sets it back.
 */
export async function fullPageScreenshot(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  // A table refetching (a filter just typed) shows its rows faded: wait for its data.
  await page.locator('.mantine-datatable-loader-fetching').first().waitFor({ state: 'detached' });
  // An accordion opening or a toast leaving changes the height: measure once the screen is at rest.
  await waitForSettled(page);
  await growToPage(page);
  await screenshot(page, name, { fullPage: true });
}
