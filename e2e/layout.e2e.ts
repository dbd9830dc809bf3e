import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { section, tableRows } from './screen';
import { apexKey, apiCall, expectPath, navigation, USERS, unique } from './support';

const e2e = useBrowser();

/** Counts the page's own loads (a reload is one) from now on. */
function countLoads(page: Page): { count: () => number } {
  let loads = 0;
  page.on('load', () => {
    loads += 1;
  });
  return { count: () => loads };
}

/**
 * Answers the screen chunks matching `glob` 404 (as the server answers an old build's chunk) the first
 * `times` they are asked for, every time if not said; counts the refusals.
 */
async function refuseChunk(
  page: Page,
  glob: string,
  times = Number.POSITIVE_INFINITY,
): Promise<{ count: () => number }> {
  let refused = 0;
  await page.route(glob, async (route) => {
    if (refused >= times) return route.continue();
    refused += 1;
    await route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
  });
  return { count: () => refused };
}

/** Issue 27 item 8: a tab opened before a redeploy asks for a screen's chunk the server no longer has. */
describe('a screen whose code is gone after a redeploy', () => {
  it('makes the app reload itself once and show the screen', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await navigation(page).waitFor();
    // The Leads screen's chunk is missing once (the old build's name), as the server answers it: 404.
    const refused = await refuseChunk(page, '**/assets/LeadsListPage-*.js', 1);
    const loads = countLoads(page);
    await navigation(page).getByRole('link', { name: 'Leads' }).click();
    await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
    await expectPath(page, '/leads');
    expect(refused.count()).toBe(1);
    expect(loads.count()).toBe(1); // the one reload
    await context.close();
  });

  it('reloads only once when the chunk stays missing, then says so instead of a blank page', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await navigation(page).waitFor();
    const refused = await refuseChunk(page, '**/assets/BuyersListPage-*.js');
    const loads = countLoads(page);
    await navigation(page).getByRole('link', { name: 'Buyers' }).click();
    await page.getByRole('heading', { name: 'This screen could not be loaded', level: 1 }).waitFor();
    await expectPath(page, '/buyers');
    // The menu stays: another screen opens as usual.
    await navigation(page).getByRole('link', { name: 'Buyers' }).waitFor();
    expect(loads.count()).toBe(1);
    expect(refused.count()).toBe(2);
    await navigation(page).getByRole('link', { name: 'Sources' }).click();
    await page.getByRole('heading', { name: 'Sources', level: 1 }).waitFor();
    expect(loads.count()).toBe(1);
    await context.close();
  });
});

/** The colour of one pixel of a PNG, read by the browser itself (no image library needed). */
async function pixel(page: Page, png: Buffer, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    async ({ data, x, y }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d');
      if (!context) throw new Error('no 2d canvas');
      context.drawImage(image, 0, 0);
      return Array.from(context.getImageData(x, y, 1, 1).data);
    },
    { data: png.toString('base64'), x, y },
  );
}

/** Issue 27 item 24: the frame every screen shares; item 25: the side navigation on a long screen. */
describe('the frame of every screen', () => {
  it('has one h1, one main landmark, a tab title and the signed-in user in the header', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/leads');
    await page.getByRole('heading', { name: 'Leads', level: 1 }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('main').count()).toBe(1);
    await expect.poll(() => page.title()).toBe('Leads · Leadex');
    const header = page.getByRole('banner');
    await header.getByText(USERS.admin.email, { exact: false }).waitFor();
    expect(await header.getByTestId('user-role').textContent()).toBe('Admin');

    // Another screen names the tab after itself.
    await navigation(page).getByRole('link', { name: 'Buyers' }).click();
    await page.getByRole('heading', { name: 'Buyers', level: 1 }).waitFor();
    await expect.poll(() => page.title()).toBe('Buyers · Leadex');
    await context.close();
  });

  it('names the sign-in page and its tab', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/auth');
    await page.getByRole('heading', { name: 'Sign in', level: 1 }).waitFor();
    expect(await page.getByRole('main').count()).toBe(1);
    await expect.poll(() => page.title()).toBe('Sign in · Leadex');
    await context.close();
  });

  it('draws the side navigation down to the end of a long screen', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeGreaterThan(800);
    await page.getByRole('banner').getByText(USERS.buyer.email, { exact: false }).waitFor();
    // A capture of the whole page (as a person's full-page screenshot or print takes it): below the
    // window's height the navigation's column keeps the navigation's colour, not the page's grey.
    const shot = await page.screenshot({ fullPage: true });
    const navColour = await navigation(page).evaluate((nav) => getComputedStyle(nav).backgroundColor);
    const [r, g, b] = (navColour.match(/\d+/g) ?? []).map(Number);
    expect(await pixel(page, shot, 20, height - 4)).toEqual([r, g, b, 255]);
    // And the page's grey stays where the screens are.
    expect(await pixel(page, shot, 1000, height - 4)).not.toEqual([r, g, b, 255]);
    await context.close();
  });
});

/** Issue 27 item 12: one name per service, the label the exchange gives it, on every screen. */
describe('a service', () => {
  it('shows by its label on the leads list, its filter and the Buyer Gaps, never by its key', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const key = await apexKey(page.request, `Labels e2e ${unique()}`);
    // Bath remodels in Alaska that nobody buys: leads of today and a gap of the month (three of them,
    // so the gap ranks among the dashboard's top twenty whatever other tests left).
    const name = `Robin Label ${unique()}`;
    for (const phone of ['9075557027', '9075557028', '9075557029']) {
      const posted = await page.request.post('/api/lead', {
        headers: { authorization: `Bearer ${key}` },
        data: { service: 'bath_remodel', zip: '99503', name, phone },
      });
      expect(await posted.json()).toMatchObject({ ok: false, reason: 'no_match' });
    }

    await page.goto('/leads?zip=99503');
    const row = tableRows(page).filter({ hasText: name }).first();
    await row.waitFor();
    expect(await row.textContent()).toContain('Bath Remodel');
    expect(await row.textContent()).not.toContain('bath_remodel');
    await page.getByRole('combobox', { name: 'Filter by service' }).click();
    await page.getByRole('option', { name: 'Bath Remodel', exact: true }).waitFor();
    expect(await page.getByRole('option', { name: 'bath_remodel' }).count()).toBe(0);
    await page.keyboard.press('Escape');

    // The engine records the gap in batches: once it has, the dashboard names the service.
    await expect
      .poll(async () => {
        const stats = await apiCall<{ topUnmatchedPings: { _id: { zip: string } }[] }>(
          page.request,
          'get',
          '/api/stats/',
        );
        return stats.topUnmatchedPings.some((gap) => gap._id.zip === '99503');
      })
      .toBe(true);
    await page.goto('/');
    const gap = tableRows(section(page, 'Buyer Gaps')).filter({ hasText: '99503' });
    await gap.waitFor();
    expect(await gap.textContent()).toContain('Bath Remodel');
    await context.close();
  });
});
