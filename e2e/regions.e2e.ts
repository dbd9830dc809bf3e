import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { chooseAndWait, expectErrorToast, fieldError, recordBodies, recordRequests, toast } from './screen';
import { screenshot } from './screenshots';
import { USERS, unique } from './support';

const e2e = useBrowser();

/** The server's answer to a region name already in use (zips.service.ts). */
const REGION_NAME_TAKEN = 'A region with this name already exists';

/** The ZIPs GET /api/zip/search answers, asked with the page's session. */
async function searchZips(page: Page, query: string): Promise<string[]> {
  const response = await page.request.get(`/api/zip/search?${query}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { zip: string }[]).map((r) => r.zip);
}

/** Admin §2 Campaign detail, Region builder; §5 suggestions from 2 characters, debounced 1000 ms. */
describe('the region builder on the campaign page', () => {
  it('builds a region from 10 miles around 10001 plus a county, creates it and offers it in the Region select', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    const suggestionCalls = recordRequests(page, 'GET', /\/api\/zip\/suggestions/);
    const posts = recordBodies(page, 'POST', /\/api\/zipset$/);

    await page.goto('/campaign/new');
    await chooseAndWait(page, page.getByRole('combobox', { name: 'Location' }), 'Region');
    const builder = page.getByTestId('region-builder');
    await builder.waitFor();
    const search = builder.getByRole('textbox', { name: 'Search a county or ZIP' });

    // One character asks nothing, even after the debounce.
    await search.fill('1');
    await page.getByText('Type at least 2 characters').waitFor();
    await page.waitForTimeout(1300);
    expect(suggestionCalls).toEqual([]);

    // A county: its ZIPs are listed and added to the region.
    await search.fill('Kings County, NY');
    await page.getByRole('option', { name: /Kings County, NY/ }).click();
    const kings = await searchZips(page, 'type=county&county=Kings&state=NY');
    await builder.getByText(`${kings.length} ZIPs in Kings County, NY`).waitFor();
    await builder.getByRole('button', { name: `Add ${kings.length} to region` }).click();
    const count = builder.getByTestId('region-zips');
    await count.getByText(`${kings.length} ZIPs`, { exact: true }).waitFor();

    // Typing a ZIP asks once, about 1000 ms after the last keystroke, not once per key.
    await search.fill('');
    const asked = suggestionCalls.length;
    await search.pressSequentially('10001', { delay: 40 });
    const typed = Date.now();
    await page.getByRole('option', { name: /10001 - New York, NY/ }).waitFor();
    expect(Date.now() - typed).toBeGreaterThanOrEqual(900);
    expect(suggestionCalls.slice(asked).map((url) => new URL(url).searchParams.get('q'))).toEqual(['10001']);
    await page.getByRole('option', { name: /10001 - New York, NY/ }).click();

    // A ZIP searches its radius: 5 miles by default, then 10; the new ZIPs join the same region.
    const radius = builder.getByRole('textbox', { name: 'Radius (miles)' });
    expect(await radius.inputValue()).toBe('5');
    const within5 = await searchZips(page, 'type=radius&zip=10001&radius=5');
    await builder.getByText(`${within5.length} ZIPs within 5 miles of 10001`).waitFor();
    await radius.fill('10');
    const within10 = await searchZips(page, 'type=radius&zip=10001&radius=10');
    await builder.getByText(`${within10.length} ZIPs within 10 miles of 10001`).waitFor();
    const both = new Set([...kings, ...within10]);
    await builder.getByRole('button', { name: `Add ${both.size - kings.length} to region` }).click();
    await count.getByText(`${both.size} ZIPs`, { exact: true }).waitFor();

    // ZIPs can be taken out one by one.
    await count.getByRole('button', { name: 'Remove 10001' }).click();
    await count.getByText(`${both.size - 1} ZIPs`, { exact: true }).waitFor();
    const union = new Set([...both].filter((zip) => zip !== '10001'));

    // The name is required.
    await builder.getByRole('button', { name: 'Create Region' }).click();
    const name = builder.getByRole('textbox', { name: 'Region Name' });
    await builder.getByText('Name is required', { exact: true }).waitFor();
    expect(await fieldError(name)).toEqual({ invalid: true, message: 'Name is required' });
    expect(posts).toEqual([]);

    // A name another region has (the demo's Dallas Metro), in another case and spacing: refused on the
    // name, so the Region select never offers two of them.
    await name.fill('  dallas METRO ');
    await builder.getByRole('button', { name: 'Create Region' }).click();
    await expectErrorToast(page, REGION_NAME_TAKEN);
    await builder.getByText(REGION_NAME_TAKEN, { exact: true }).waitFor();
    expect(await fieldError(name)).toEqual({ invalid: true, message: REGION_NAME_TAKEN });
    expect(posts).toHaveLength(1);
    posts.length = 0;

    const regionName = `Midtown 10 mi + Brooklyn ${unique()}`;
    await name.fill(regionName);
    await builder.getByRole('textbox', { name: 'Description' }).fill('Ten miles around Penn Station, and Brooklyn');
    await page.waitForLoadState('networkidle');
    // A window as tall as the page: the element capture then needs no scrolling under the sticky header.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1440, height: Math.max(900, height) });
    const location = page
      .locator('.mantine-Paper-root')
      .filter({ has: page.getByRole('heading', { name: 'Location', exact: true }) });
    await screenshot(location, 'region-builder');

    await builder.getByRole('button', { name: 'Create Region' }).click();
    const created = toast(page, "Don't forget to choose it in your campaign");
    await created.waitFor();
    expect(await created.locator('.mantine-Notification-title').textContent()).toBe('Region Created');
    expect(posts).toHaveLength(1);
    const sent = posts[0] as { name: string; zips: string[] };
    expect(sent.name).toBe(regionName);
    expect(new Set(sent.zips)).toEqual(union);

    // The campaign chooses the new region, and its Region select offers it.
    const select = page.getByRole('combobox', { name: 'Region', exact: true });
    await expect.poll(() => select.inputValue()).toContain(regionName);
    await select.click();
    await page.getByRole('option', { name: new RegExp(regionName.replace(/[+]/g, '\\+')) }).waitFor();
    await context.close();
  });
});
