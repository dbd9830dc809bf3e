import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { choose, fieldError, recordBodies, tableRows, toast } from './screen';
import { screenshot } from './screenshots';
import { expectPath, pathOf, USERS, unique } from './support';

/**
 * Issue 9, item 6: the smaller things a first look at the screens finds. Screenshots go to
 * $E2E_SHOTS (for a person to look at), never into the repository.
 */
const e2e = useBrowser();

async function shot(page: Page, name: string) {
  await screenshot(page, name, { fullPage: true });
}

/** The colour an input paints its placeholder in. */
function placeholderColor(input: Locator): Promise<string> {
  return input.evaluate((el) => getComputedStyle(el, '::placeholder').color);
}

describe('source detail', () => {
  it('shows the phone formatted as the Sources list does, and as stored while editing', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/sources');
    const row = tableRows(page).filter({ hasText: 'Apex Lead Partners' });
    await row.waitFor();
    // The demo source's phone is stored as 10 bare digits.
    await row.getByText('(512) 555-0190', { exact: true }).waitFor();
    await row.click();
    await expectPath(page, /^\/source\/src_/);
    const phone = page.getByRole('textbox', { name: 'Phone', exact: true });
    await expect.poll(() => phone.inputValue()).toBe('(512) 555-0190');
    await shot(page, 'source-detail');

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect.poll(() => phone.inputValue()).toBe('5125550190');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => phone.inputValue()).toBe('(512) 555-0190');
    await context.close();
  });
});

describe('custom delivery status', () => {
  it("reads Pause on a paused delivery's page (admin §2) and Paused in the list, and a create says created", async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    const name = `Paused CRM ${unique()}`;
    await page.goto('/delivery/new');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill('https://crm.example.com/paused');
    await page.getByRole('radio', { name: 'Paused' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expectPath(page, /^\/delivery\/whk_/);
    await toast(page, `${name} created successfully`).waitFor();
    expect(await toast(page, 'updated successfully').count()).toBe(0);

    const details = page
      .locator('.mantine-Paper-root')
      .filter({ has: page.getByRole('heading', { name: 'Delivery Details' }) });
    await details.getByText('Pause', { exact: true }).waitFor();
    expect(await details.getByText('Paused', { exact: true }).count()).toBe(0);
    await shot(page, 'delivery-paused');

    // The list's status column says Live, Paused or Draft (admin §2 Deliveries list).
    await page.goto('/deliveries');
    const row = tableRows(page).filter({ hasText: name });
    await row.getByText('Paused', { exact: true }).waitFor();
    await context.close();
  });
});

describe("the buyer's new campaign", () => {
  it('shows every field of Campaign Details, keeps placeholders dimmed on errors, and saves the services', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    const posts = recordBodies<Record<string, unknown>>(page, 'POST', /\/api\/match$/);
    await page.goto('/campaign/new');
    await page.getByRole('heading', { name: 'New Campaign' }).waitFor();

    // Portals §2: the sections of the buyer's campaign screen, all on create.
    for (const section of ['Campaign Details', 'Location', 'Limits', 'Lead Delivery', 'Time Restrictions'])
      await page.getByRole('heading', { name: section, exact: true }).waitFor();
    const name = page.getByRole('textbox', { name: 'Name', exact: true });
    const services = page.getByRole('combobox', { name: 'Services' });
    const notes = page.getByRole('textbox', { name: 'Notes', exact: true });
    for (const field of [name, page.getByRole('textbox', { name: 'Price', exact: true }), services, notes])
      await field.waitFor();
    await page.getByRole('combobox', { name: 'Shared Leads' }).waitFor();
    await page.getByRole('combobox', { name: 'Tags', exact: true }).waitFor();

    // Save with nothing filled: the fields are marked, their placeholders stay the placeholder colour.
    const calm = await placeholderColor(services);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => fieldError(name)).toEqual({ invalid: true, message: 'Name is required' });
    expect(await placeholderColor(name)).toBe(calm);
    const errorColor = await page
      .getByText('Name is required', { exact: true })
      .evaluate((el) => getComputedStyle(el).color);
    expect(calm).not.toBe(errorColor);
    const states = page.getByRole('combobox', { name: 'States' });
    await page.getByText('At least one state is required when location is set to state', { exact: true }).waitFor();
    expect(await placeholderColor(states)).toBe(calm);
    await shot(page, 'campaign-new-errors');
    expect(posts).toEqual([]);

    const campaignName = `Roofing - Austin ${unique()}`;
    await name.fill(campaignName);
    await page.getByRole('textbox', { name: 'Price', exact: true }).fill('42');
    await choose(page, services, 'Roofing');
    await choose(page, services, 'Gutters');
    await page.keyboard.press('Escape');
    await choose(page, states, 'TX');
    await page.keyboard.press('Escape');
    await shot(page, 'campaign-new-filled');
    await page.getByRole('button', { name: 'Save' }).click();

    await expectPath(page, /^\/campaign\/cmp_/);
    await toast(page, `${campaignName} created successfully`).waitFor();
    expect(posts).toHaveLength(1);
    expect(posts[0]?.services).toEqual(['roofing', 'gutters']);

    // Read-only: the services as pills; no tags read N/A, no notes None (not blank boxes).
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    const details = page
      .locator('.mantine-Paper-root')
      .filter({ has: page.getByRole('heading', { name: 'Campaign Details' }) });
    await details.getByText('Roofing', { exact: true }).waitFor();
    await details.getByText('Gutters', { exact: true }).waitFor();
    const tags = page.getByRole('combobox', { name: 'Tags', exact: true });
    expect(await tags.getAttribute('placeholder')).toBe('N/A');
    expect(await notes.getAttribute('placeholder')).toBe('None');
    expect(await notes.inputValue()).toBe('');
    // A read-only list that holds values shows no placeholder beside them.
    expect(await services.getAttribute('placeholder')).toBeNull();
    await shot(page, 'campaign-read-only');

    // In edit mode they are ordinary empty inputs again.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    expect(await tags.getAttribute('placeholder')).toBe('Add a tag and press Enter');
    expect(await notes.getAttribute('placeholder')).toBeNull();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(pathOf(page)).toMatch(/^\/campaign\/cmp_/);
    await context.close();
  });
});

describe('the campaigns list on a phone', () => {
  /** Checks at 390x844: the page does not scroll sideways, every Status is in view, no badge is cut. */
  async function expectUsable(page: Page, name: string) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/campaigns');
    const rows = tableRows(page);
    await rows.first().waitFor();
    await page.locator('table thead').getByText('Status', { exact: true }).waitFor();
    await shot(page, name);

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const status = rows.nth(i).locator('td').last().locator('.mantine-Badge-root');
      const box = await status.boundingBox();
      expect(box, `row ${i} status`).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
      expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
      expect(['Live', 'Paused', 'Draft']).toContain((await status.textContent())?.trim());
    }
    const badges = page.locator('table tbody .mantine-Badge-label');
    const cut = await badges.evaluateAll((labels) =>
      labels.filter((label) => label.scrollWidth > label.clientWidth).map((label) => label.textContent),
    );
    expect(cut).toEqual([]);
  }

  it("keeps the buyer's Status in view and the service badges whole", async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    await expectUsable(page, 'campaigns-phone-buyer');
    await context.close();
  });

  it("keeps the admin's Status in view and the service badges whole", async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await expectUsable(page, 'campaigns-phone-admin');
    await context.close();
  });
});
