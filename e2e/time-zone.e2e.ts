import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { checkEveryScreen, checkedScreensIn } from './accessibility';
import { resetMockDateAfterAll, useBrowser } from './browser';
import { section, tableRows } from './screen';
import { fullPageScreenshot } from './screenshots';
import { apexKey, apiCall, signInThroughApi, USERS } from './support';

/**
 * Issue 27 item 6 (docs/decisions.md "One clock"): the screens show every time in the exchange's zone,
 * labelled, whatever the browser's zone. The browser here runs in UTC; the exchange's mock date is
 * 11:30 PM New York time on November 26, already November 27 in UTC.
 */
const e2e = useBrowser();
resetMockDateAfterAll(e2e);

const NAME = 'Quinn Zonetest';
/** 04:30 UTC on November 27, 2026: 11:30 PM EST on November 26. */
const AT = Date.parse('2026-11-27T04:30:00Z') / 1000;
const WIDE = { width: 1440, height: 900 };

const opened: BrowserContext[] = [];
afterAll(async () => {
  for (const context of opened) await context.close();
});

/** A page of the admin in a browser whose zone is UTC (not the exchange's), signed in. */
async function adminInUtc(): Promise<Page> {
  const context = await e2e.browser.newContext({ baseURL: e2e.baseURL, viewport: WIDE, timezoneId: 'UTC' });
  opened.push(context);
  const page = await context.newPage();
  checkEveryScreen(context, page, checkedScreensIn(inject('screensCheckedDir')));
  await signInThroughApi(page, e2e.baseURL, USERS.admin);
  return page;
}

describe('one clock: the exchange zone on every screen (issue 27 item 6)', () => {
  it('lists a lead under Today with its ET time in a UTC browser', async () => {
    const page = await adminInUtc();
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('UTC');
    const api = page.request;
    await apiCall(api, 'post', '/api/sim/mockDate', { date: AT });
    const key = await apexKey(api, 'Time zone e2e');
    // Nobody buys roofing in Maine: the lead is stored unsold, at the mock date.
    const res = await api.post('/api/lead', {
      headers: { authorization: `Bearer ${key}` },
      data: { service: 'roofing', zip: '04101', name: NAME, email: 'quinn.zonetest@example.com' },
    });
    expect((await res.json()) as object).toMatchObject({ lead_id: expect.stringMatching(/^lead_/) });

    await page.goto('/leads');
    expect(await page.getByRole('radio', { name: 'Today' }).isChecked()).toBe(true);
    const row = tableRows(page).filter({ hasText: NAME });
    await row.waitFor();
    // The exchange's day and time, labelled: not the browser's 11/27/2026 4:30 AM.
    await expect.poll(() => row.textContent()).toMatch(/11\/26\/2026 11:3\d PM ET/);
    expect(await row.textContent()).not.toMatch(/4:3\d AM/);
    await fullPageScreenshot(page, 'time-zone-leads-today-utc-browser');

    // The lead's own page says the same.
    await row.getByText(NAME).click();
    await expect.poll(() => page.locator('main').textContent()).toMatch(/11\/26\/2026 11:3\d PM ET/);
  });

  it('shows the admin the exchange zone on Settings', async () => {
    const page = await adminInUtc();
    await page.goto('/settings');
    const card = section(page, 'Time Zone');
    await expect
      .poll(() => card.getByRole('combobox', { name: 'Exchange time zone' }).inputValue())
      .toBe('America/New_York');
    await expect.poll(() => card.textContent()).toMatch(/read like this: \d\d\/\d\d\/\d{4} \d{1,2}:\d\d [AP]M ET/);
    await card.scrollIntoViewIfNeeded();
    await fullPageScreenshot(page, 'time-zone-settings');
  });
});
