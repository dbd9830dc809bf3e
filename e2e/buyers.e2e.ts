import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { chooseAndWait, expectErrorToast, fieldError, recordBodies, recordRequests, tableRows, toast } from './screen';
import { fullPageScreenshot, screenshot } from './screenshots';
import {
  createBuyerViaApi,
  DEMO_BUYER_NAME,
  expectCreated,
  expectPath,
  navigation,
  openNewBuyer,
  USERS,
  unique,
} from './support';

const e2e = useBrowser();

/** The buyer form's inputs (the Name label is matched exactly: 'Username' contains it). */
function buyerForm(page: Page) {
  return {
    username: page.getByRole('textbox', { name: 'Username' }),
    name: page.getByRole('textbox', { name: 'Name', exact: true }),
    city: page.getByRole('textbox', { name: 'City' }),
    phone: page.getByRole('textbox', { name: 'Phone', exact: true }),
    // Exact: the Lead Delivery section has an 'Email List'.
    email: page.getByRole('textbox', { name: 'Email', exact: true }),
    payMethod: page.getByRole('combobox', { name: 'Payment Method' }),
    save: page.getByRole('button', { name: 'Save' }),
    edit: page.getByRole('button', { name: 'Edit', exact: true }),
    cancel: page.getByRole('button', { name: 'Cancel' }),
  };
}

// First in this file, on the freshly seeded exchange: the list shows the demo buyers only.
describe('screenshots for the issue (docs/screenshots)', () => {
  it('the buyers list and the buyer detail page in edit mode, 1440x900, full page', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto('/buyers');
    await expect.poll(() => tableRows(page).count()).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'buyers-list', { fullPage: true });

    // A seeded buyer with users (searched for, in case a re-run on the same server added buyers).
    await page.getByRole('textbox', { name: 'Search by name' }).fill(DEMO_BUYER_NAME);
    await tableRows(page).filter({ hasText: DEMO_BUYER_NAME }).click();
    await expectPath(page, /^\/buyer\/(?!new$)[^/]+$/);
    const form = buyerForm(page);
    await form.edit.click();
    await form.save.waitFor();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await fullPageScreenshot(page, 'buyer-detail-edit');
    // Leave without saving: the demo buyer stays as seeded.
    await form.cancel.click();
    await context.close();
  });
});

/** Issue 3, Must show: the admin creates a buyer at /buyer/new and finds it in the Buyers list. */
describe('creating a buyer', () => {
  it("refuses the username 'ab' on the form, saves once fixed, and the buyer is found in the list", async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const posts = recordRequests(page, 'POST', /\/api\/buyer$/);
    const suffix = unique();
    const buyer = {
      username: `lakeside-${suffix}`,
      name: `Lakeside Gutters ${suffix}`,
      phone: '5125550199',
      email: `dispatch-${suffix}@lakesidegutters.example`,
    };

    await navigation(page).getByRole('link', { name: 'Buyers' }).click();
    await expectPath(page, '/buyers');
    await page.getByRole('link', { name: 'Create New Buyer' }).click();
    await expectPath(page, '/buyer/new');
    await page.getByRole('heading', { name: 'New Buyer' }).waitFor();
    const form = buyerForm(page);

    await form.username.fill('ab');
    await form.save.click();

    await page.getByText('Usernames must be at least 4 characters long.', { exact: true }).waitFor();
    expect(await fieldError(form.username)).toEqual({
      invalid: true,
      message: 'Usernames must be at least 4 characters long.',
    });
    // The other required fields are marked too, with the spec's words.
    expect((await fieldError(form.name)).message).toBe('Name is required');
    expect((await fieldError(form.phone)).message).toBe('Phone is required');
    expect((await fieldError(form.email)).message).toBe('Email is required');
    expect(posts).toEqual([]); // the form stopped it: nothing reached the server
    await expectPath(page, '/buyer/new');

    await form.username.fill(buyer.username);
    await form.name.fill(buyer.name);
    await form.phone.fill(buyer.phone);
    await form.email.fill(buyer.email);
    await chooseAndWait(page, form.payMethod, 'ACH or Credit Card');
    await form.save.click();

    // Lands on the new buyer's page, read-only, with the username no longer editable.
    const id = await expectCreated(page, /^\/buyer\/(?!new$)[^/]+$/, buyer.name);
    await form.edit.waitFor();
    expect(posts).toHaveLength(1);
    expect(await page.getByRole('textbox', { name: 'ID' }).inputValue()).toBe(id);
    expect(await form.username.inputValue()).toBe(buyer.username);
    expect(await form.username.isEditable()).toBe(false);
    // Read-only, a select shows its chosen label as plain text.
    expect(await page.getByRole('textbox', { name: 'Payment Method' }).inputValue()).toBe('ACH or Credit Card');
    await form.edit.click();
    expect(await form.username.isEditable()).toBe(false); // editable only on create
    expect(await form.name.isEditable()).toBe(true);
    await form.cancel.click();

    // The Buyers list, searched by the buyer's name, shows it; its row opens the buyer.
    await page.getByRole('main').getByRole('link', { name: 'Buyers', exact: true }).click(); // the breadcrumb
    await expectPath(page, '/buyers');
    await page.getByRole('textbox', { name: 'Search by name' }).fill(buyer.name);
    await expect.poll(() => new URL(page.url()).searchParams.get('name')).toBe(buyer.name);
    const row = tableRows(page).filter({ hasText: buyer.name });
    await row.waitFor();
    await expect.poll(() => tableRows(page).count()).toBe(1);
    const cells = (await row.locator('td').allInnerTexts()).map((text) => text.trim());
    expect(cells).toEqual([buyer.name, buyer.username, buyer.email, '(512) 555-0199', '', '']);

    // The search lives in the URL: a reload shows the same search and the same row.
    await page.reload();
    await row.waitFor();
    expect(await page.getByRole('textbox', { name: 'Search by name' }).inputValue()).toBe(buyer.name);
    expect(await tableRows(page).count()).toBe(1);

    await row.click();
    await expectPath(page, `/buyer/${id}`);
    await page.getByRole('heading', { name: buyer.name }).waitFor();
    await context.close();
  });

  it("marks the Username field with the server's 'Username is already taken.'", async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/buyer/new');
    const form = buyerForm(page);
    const suffix = unique();

    await form.username.fill(USERS.buyer.username);
    await form.name.fill(`Ridgeline Roofing ${suffix}`);
    await form.phone.fill('5125550111');
    await form.email.fill(`office-${suffix}@ridgeline.example`);
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/buyer'));
    await form.save.click();

    expect((await answer).status()).toBe(400);
    await expect
      .poll(() => fieldError(form.username))
      .toEqual({ invalid: true, message: 'Username is already taken.' });
    // The same answer raises the spec's error toast, and the form stays open on /buyer/new.
    await expectErrorToast(page, 'Username is already taken.');
    await expectPath(page, '/buyer/new');
    expect(await form.username.isEditable()).toBe(true);

    // Fixing the field clears the mark and saves.
    await form.username.fill(`ridgeline-${suffix}`);
    await form.save.click();
    await expectPath(page, /^\/buyer\/(?!new$)[^/]+$/);
    await page.getByRole('heading', { name: `Ridgeline Roofing ${suffix}` }).waitFor();
    await context.close();
  });
});

/** Admin spec §2 and §9, Buyers list: page size 15, paged on the server, page kept in the URL. */
describe('the Buyers list', () => {
  it('shows 15 buyers a page and pages through a search', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const tag = unique();
    const names = Array.from({ length: 16 }, (_, i) => `Paging Supply ${tag} ${String(i + 1).padStart(2, '0')}`);
    for (const name of names) await createBuyerViaApi(page, name);

    await page.goto(`/buyers?name=${encodeURIComponent(`Paging Supply ${tag}`)}`);
    await tableRows(page).filter({ hasText: names[0] }).waitFor();
    await expect.poll(() => tableRows(page).count()).toBe(15);
    await page.getByText('1–15 of 16').waitFor();
    // Sorted by name: the first page holds 01 to 15.
    expect(await tableRows(page).first().locator('td').first().textContent()).toBe(names[0]);
    expect(await tableRows(page).last().locator('td').first().textContent()).toBe(names[14]);

    await page.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
    await tableRows(page).filter({ hasText: names[15] }).waitFor();
    await expect.poll(() => tableRows(page).count()).toBe(1);
    await page.getByText('16–16 of 16').waitFor();

    // The page is in the URL: a reload stays on page 2.
    await page.reload();
    await tableRows(page).filter({ hasText: names[15] }).waitFor();
    expect(await tableRows(page).count()).toBe(1);
    await context.close();
  });
});

/** Admin spec §8: the error toast, red at the top centre, titled 'Error'. */
describe('error toasts', () => {
  it("says 'An unknown error occurred' when the network fails", async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    // The list loaded (other tests add buyers, so search for a seeded one to know it is on screen).
    await page.goto('/buyers?name=Summit');
    await tableRows(page).filter({ hasText: DEMO_BUYER_NAME }).waitFor();

    await page.route('**/api/buyer?**', (route) => route.abort('internetdisconnected'));
    await page.getByRole('textbox', { name: 'Search by name' }).fill('Bright');

    await expectErrorToast(page, 'An unknown error occurred');
    await context.close();
  });

  it("shows the server's message, and 'An error occurred.' when the server gives none", async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/buyers?name=Summit');
    await tableRows(page).filter({ hasText: DEMO_BUYER_NAME }).waitFor();
    const search = page.getByRole('textbox', { name: 'Search by name' });

    await page.route('**/api/buyer?**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ ok: false, message: 'Boom' }),
      }),
    );
    await search.fill('Bright');
    await expectErrorToast(page, 'Boom');

    await page.unroute('**/api/buyer?**');
    await page.route('**/api/buyer?**', (route) => route.fulfill({ status: 502, body: '' }));
    await search.fill('Comfort');
    await expectErrorToast(page, 'An error occurred.');
    await context.close();
  });

  it("shows the real server's reason: a buyer that does not exist", async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/buyer/no-such-buyer');
    await expectErrorToast(page, 'Buyer not found');
    await context.close();
  });
});

/** Admin spec §2: read-only and edit modes; Save without changes leaves edit mode; Cancel resets. */
describe('editing a buyer', () => {
  it('saves a changed City (it survives a reload), Cancel restores, Save without changes sends nothing', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const { name } = await openNewBuyer(page, 'Harbor Windows');
    const puts = recordRequests(page, 'PUT', /\/api\/buyer\//);
    const putBodies = recordBodies(page, 'PUT', /\/api\/buyer\//);
    const form = buyerForm(page);
    expect(await form.city.inputValue()).toBe('');
    expect(await form.city.isEditable()).toBe(false); // read-only until Edit

    // Edit → change → Save: sends only the change, persists.
    await form.edit.click();
    expect(await form.city.isEditable()).toBe(true);
    await form.city.fill('Austin');
    await form.save.click();
    await form.edit.waitFor();
    await toast(page, `${name} updated successfully`).waitFor();
    expect(putBodies).toEqual([{ city: 'Austin' }]);
    expect(await form.city.inputValue()).toBe('Austin');
    expect(await form.city.isEditable()).toBe(false);
    await page.reload();
    await page.getByRole('heading', { name }).waitFor();
    await expect.poll(() => form.city.inputValue()).toBe('Austin');

    // Edit → change → Cancel: the old value is back, read-only, nothing sent.
    await form.edit.click();
    await form.city.fill('Dallas');
    await form.cancel.click();
    await form.edit.waitFor();
    expect(await form.city.inputValue()).toBe('Austin');
    expect(await form.city.isEditable()).toBe(false);
    expect(puts).toHaveLength(1);

    // Edit → Save with no change: just leaves edit mode, no request.
    await form.edit.click();
    await form.save.click();
    await form.edit.waitFor();
    expect(await form.cancel.count()).toBe(0);
    expect(await form.city.isEditable()).toBe(false);
    expect(puts).toHaveLength(1);

    // A change put back by hand is no change either.
    await form.edit.click();
    await form.city.fill('Dallas');
    await form.city.fill('Austin');
    await form.save.click();
    await form.edit.waitFor();
    expect(puts).toHaveLength(1);

    await page.reload();
    await page.getByRole('heading', { name }).waitFor();
    await expect.poll(() => form.city.inputValue()).toBe('Austin');
    await context.close();
  });
});

/** Admin spec §2, Buyer detail: a buyer's own view of the profile is read-only. */
describe("the buyer's own profile", () => {
  it('is read-only at /buyer and says to contact the provider to change users', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);

    await navigation(page).getByRole('link', { name: 'Profile' }).click();

    await expectPath(page, '/buyer');
    await page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();
    const form = buyerForm(page);
    await expect.poll(() => form.name.inputValue()).toBe(DEMO_BUYER_NAME);
    expect(await form.username.inputValue()).toBe(USERS.buyer.username);
    for (const input of [form.username, form.name, form.city, form.phone, form.email]) {
      expect(await input.isEditable()).toBe(false);
    }
    expect(await form.edit.count()).toBe(0);
    expect(await form.save.count()).toBe(0);
    await page.getByText('To add, remove or change users, contact your provider.').waitFor();
    await context.close();
  });

  it("does not let the buyer reach the admin's Buyers list: /buyers redirects to /", async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);

    await page.goto('/buyers');

    await expectPath(page, '/');
    await page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();
    expect(await page.getByRole('link', { name: 'Create New Buyer' }).count()).toBe(0);
    // And the API agrees: the list is the admin's.
    const list = await page.request.get('/api/buyer');
    expect(list.status()).toBe(403);
    await context.close();
  });
});
