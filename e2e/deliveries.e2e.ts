import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { closeToast, fieldError, openDeliveryTest, recordBodies, recordRequests, tableRows, toast } from './screen';
import { fullPageScreenshot, screenshot } from './screenshots';
import { expectCreated, expectPath, navigation, pathOf, type Receiver, startReceiver, USERS, unique } from './support';

const e2e = useBrowser();

/** The buyer's system: a receiver on 127.0.0.1 answering {"status":"ok","id":"B-1"}. */
let receiver: Receiver;
let receiverUrl: string;

beforeAll(async () => {
  receiver = await startReceiver(() => ({ body: '{"status":"ok","id":"B-1"}' }));
  receiverUrl = `${receiver.base}/leads`;
});
afterAll(() => receiver?.close());

/** The value input of the mapping row whose field is `field` (a template row). */
async function mappingValue(page: Page, field: string) {
  const name = await page.locator(`input[type="hidden"][value="${field}"]`).getAttribute('name');
  if (!name?.endsWith('.field')) throw new Error(`no mapping row for ${field}`);
  return page.locator(`input[name="${name.replace(/\.field$/, '.value')}"]`);
}

let created: { id: string; name: string } | undefined;

/** Admin §2 Deliveries list and Delivery detail; §5 Delivery validation; the Test modal. */
describe('an admin creating a custom delivery', () => {
  it('shows the validation messages, saves a delivery with a mapping and a hardcoded value, and tests it', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    const posts = recordRequests(page, 'POST', /\/api\/webhook$/);
    const name = `Summit CRM ${unique()}`;

    await navigation(page).getByRole('link', { name: 'Custom Deliveries' }).click();
    await expectPath(page, '/deliveries');
    await page.getByRole('link', { name: 'Create Custom Delivery' }).click();
    await expectPath(page, '/delivery/new');
    await page.getByRole('heading', { name: 'New Custom Delivery' }).waitFor();
    // A new delivery starts in edit mode, as a draft, with Save only.
    expect(await page.getByRole('radio', { name: 'Draft' }).isChecked()).toBe(true);
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);

    // Saving the empty form shows the spec's messages and sends nothing.
    await page.getByRole('button', { name: 'Save' }).click();
    const nameInput = page.getByRole('textbox', { name: 'Name', exact: true });
    const urlInput = page.getByRole('textbox', { name: 'URL' });
    await expect.poll(() => fieldError(nameInput)).toEqual({ invalid: true, message: 'Name is required' });
    expect(await fieldError(urlInput)).toEqual({ invalid: true, message: 'URL is required' });
    expect((await fieldError(page.getByRole('combobox', { name: 'Buyer' }))).message).toBe('Buyer is required');
    // A hardcoded row added empty: 'Field is required' and 'Value is required'.
    await page.getByRole('button', { name: 'Add Hardcoded Value' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => fieldError(page.getByRole('textbox', { name: 'Hardcoded value 1 Field' })))
      .toEqual({ invalid: true, message: 'Field is required' });
    expect((await fieldError(page.getByRole('textbox', { name: 'Hardcoded value 1 Value' }))).message).toBe(
      'Value is required',
    );
    expect(posts).toEqual([]);

    // The form filled in.
    await nameInput.fill(name);
    const buyer = page.getByRole('combobox', { name: 'Buyer' });
    await buyer.fill('Summit');
    await page.getByRole('option', { name: 'Summit Roofing Co.', exact: true }).click();
    await urlInput.fill(receiverUrl);
    await page.getByRole('textbox', { name: 'Return ID' }).fill('id');
    await page.getByRole('textbox', { name: 'Key', exact: true }).fill('k-123');
    await page.getByRole('textbox', { name: 'Key Name' }).fill('api_key');
    await page.getByRole('button', { name: 'Add Accept Rule' }).click();
    await page.getByRole('textbox', { name: 'Accept 1 Field' }).fill('status');
    await page.getByRole('textbox', { name: 'Accept 1 Value' }).fill('ok');
    await page.getByRole('button', { name: 'Add Header' }).click();
    await page.getByRole('textbox', { name: 'Header 1 Header' }).fill('X-Buyer-Token');
    await page.getByRole('textbox', { name: 'Header 1 Value' }).fill('t0k');
    await (await mappingValue(page, 'first_name')).fill('FirstName');
    await (await mappingValue(page, 'phone')).fill('PhoneNumber');
    await page.getByRole('textbox', { name: 'Hardcoded value 1 Field' }).fill('vendor');
    await page.getByRole('textbox', { name: 'Hardcoded value 1 Value' }).fill('leadex');
    await page.getByRole('button', { name: 'Save' }).click();

    // Saved: the page opens the new delivery, read-only, as a draft.
    const id = await expectCreated(page, /^\/delivery\/whk_/, name);
    created = { id, name };
    await closeToast(page, `${name} created successfully`);
    expect(posts).toHaveLength(1);
    await page.getByText('Draft', { exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Buyer' }).inputValue()).toBe('Summit Roofing Co.');
    // Only the mapped rows were kept; empty read-only lists show None.
    expect(await page.locator('input[name^="map."][name$=".value"]').count()).toBe(2);
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    await page.getByRole('button', { name: 'Test' }).waitFor();
    await fullPageScreenshot(page, 'delivery-detail');
    await page.setViewportSize({ width: 1440, height: 900 });

    // The Test modal: one input per mapped field, Send Test, then the Test Response.
    const { dialog, inputs } = await openDeliveryTest(page);
    expect(inputs).toEqual(['test_first_name', 'test_phone']);
    await dialog.getByRole('textbox', { name: 'phone' }).fill('5125550199');
    await dialog.getByRole('button', { name: 'Send Test' }).click();
    const response = dialog.getByTestId('test-response');
    await response.waitFor();
    await response.getByText('Accepted', { exact: true }).waitFor();
    await response.getByText(receiverUrl, { exact: true }).waitFor();
    const shown = (await response.textContent()) ?? '';
    expect(shown).toContain('"PhoneNumber": "5125550199"');
    expect(shown).toContain('"vendor": "leadex"');
    expect(shown).toContain('"api_key": "k-123"');
    expect(shown).toContain('X-Buyer-Token');
    expect(shown).toContain('"id": "B-1"');
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]?.body ?? '')).toEqual({
      FirstName: 'Jane',
      PhoneNumber: '5125550199',
      vendor: 'leadex',
      api_key: 'k-123',
    });
    expect(receiver.received[0]?.headers['x-buyer-token']).toBe('t0k');
    await page.waitForTimeout(600); // the smooth scroll to the result
    await screenshot(page, 'delivery-test');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Edit: set it live; Save with the change sends only the status.
    const puts = recordBodies(page, 'PUT', new RegExp(`/api/webhook/${id}$`));
    await page.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByRole('button', { name: 'Test' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    await page.getByRole('radio', { name: 'Live' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(puts).toEqual([{ status: 'live' }]);
    await page.getByText('Live', { exact: true }).waitFor();
    // Save with no changes just leaves edit mode.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(puts).toHaveLength(1);

    // The buyer chosen last is offered for the next new delivery.
    await page.goto('/delivery/new');
    await page.getByRole('heading', { name: 'New Custom Delivery' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Buyer' }).inputValue()).toBe('Summit Roofing Co.');
    const remembered = await page.evaluate(() => localStorage.getItem('default-campaign-buyer'));
    expect(JSON.parse(remembered ?? '{}')).toMatchObject({ _id: expect.stringMatching(/^buy_/) });
    await context.close();
  });

  it('copies the delivery from the list and finds the copy in the list', async () => {
    if (!created) throw new Error('the delivery of the first test is missing');
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/deliveries');
    await page.getByRole('textbox', { name: 'Search by name' }).fill(created.name);
    const row = tableRows(page).filter({ hasText: created.name });
    // The search has answered (the row may show before it does, and moves when the list narrows).
    await expect.poll(() => tableRows(page).count()).toBe(1);
    await row.waitFor();
    const cells = (await row.locator('td').allInnerTexts()).map((text) => text.trim());
    expect(cells.slice(1)).toEqual(['Summit Roofing Co.', 'N/A', 'Live', 'Copy']);
    await row.getByRole('button', { name: `Copy ${created.name}` }).click();
    await expectPath(page, `/delivery/${created.id}/copy`);

    // The copy is a new, unsaved draft of the same buyer, in edit mode.
    const copyName = `${created.name} (copy)`;
    await page.getByRole('heading', { name: copyName }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe(copyName);
    expect(await page.getByRole('radio', { name: 'Draft' }).isChecked()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Buyer' }).inputValue()).toBe('Summit Roofing Co.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectPath(page, /^\/delivery\/whk_/);
    expect(pathOf(page)).not.toBe(`/delivery/${created.id}`);
    await toast(page, `${copyName} created successfully`).waitFor();
    await closeToast(page, `${copyName} created successfully`);

    // Deliveries of other buyers, for a list that shows what it can do.
    const buyers = (await (await page.request.get('/api/buyer?pageSize=50')).json()) as {
      data: { _id: string; name: string }[];
    };
    const buyerId = (prefix: string) => buyers.data.find((b) => b.name.startsWith(prefix))?._id;
    for (const extra of [
      {
        name: 'BrightPath Solar XML feed',
        buyer: buyerId('BrightPath'),
        send_content_type: 'xml',
        tags: ['solar', 'xml'],
        status: 'live',
      },
      { name: 'Comfort Air dispatch', buyer: buyerId('Comfort'), method: 'PUT', tags: ['hvac'], status: 'pause' },
    ]) {
      const made = await page.request.post('/api/webhook', {
        data: { ...extra, name: `${extra.name} ${unique()}`, url: 'https://crm.example.com/leads' },
      });
      expect(made.status()).toBe(201);
    }

    await navigation(page).getByRole('link', { name: 'Custom Deliveries' }).click();
    await expectPath(page, '/deliveries');
    await page.getByRole('textbox', { name: 'Search by name' }).fill(created.name);
    await tableRows(page).filter({ hasText: copyName }).waitFor();
    await expect.poll(() => tableRows(page).count()).toBe(2);
    await page.getByRole('textbox', { name: 'Search by name' }).fill('');
    await expect.poll(() => new URL(page.url()).searchParams.get('name')).toBeNull();
    await tableRows(page).filter({ hasText: 'BrightPath Solar XML feed' }).waitFor();
    await tableRows(page).filter({ hasText: 'Comfort Air dispatch' }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'deliveries-list', { fullPage: true });

    // An unknown name: the spec's empty text.
    await page.getByRole('textbox', { name: 'Search by name' }).fill(`nothing-${unique()}`);
    await page.getByText('No results').waitFor();
    await context.close();
  });
});

/** Portals §2 Buyer deliveries: a buyer sees and opens only its own. */
describe('a buyer', () => {
  it("sees only its own deliveries, and another buyer's is not found", async () => {
    if (!created) throw new Error('the delivery of the first test is missing');
    // Another buyer's delivery, made through the API as the admin.
    const admin = await e2e.signedIn(USERS.admin);
    const buyers = await admin.page.request.get('/api/buyer?name=BrightPath');
    const brightPath = ((await buyers.json()) as { data: { _id: string }[] }).data[0];
    if (!brightPath) throw new Error('BrightPath Solar is not seeded');
    const otherName = `BrightPath hook ${unique()}`;
    const made = await admin.page.request.post('/api/webhook', {
      data: { name: otherName, buyer: brightPath._id, url: 'https://crm.brightpath.example/leads', tags: ['solar'] },
    });
    expect(made.status()).toBe(201);
    const other = (await made.json()) as { _id: string };
    await admin.context.close();

    const { context, page } = await e2e.signedIn(USERS.buyer);
    await navigation(page).getByRole('link', { name: 'Custom Deliveries' }).click();
    await expectPath(page, '/deliveries');
    // A buyer searches by name and tag only.
    expect(await page.getByRole('textbox', { name: 'Search by buyer name' }).count()).toBe(0);
    await tableRows(page).filter({ hasText: created.name }).first().waitFor();
    const names = await tableRows(page).locator('td:first-child').allInnerTexts();
    expect(names.some((text) => text.includes(otherName))).toBe(false);
    const buyerNames = await tableRows(page).locator('td:nth-child(2)').allInnerTexts();
    expect(new Set(buyerNames.map((text) => text.trim()))).toEqual(new Set(['Summit Roofing Co.']));

    // Its own opens; another buyer's answers as if it did not exist.
    await tableRows(page).filter({ hasText: created.name }).first().click();
    await expectPath(page, `/delivery/${created.id}`);
    await page.getByRole('heading', { name: created.name }).waitFor();
    await page.goto(`/delivery/${other._id}`);
    await page.getByText('Custom delivery not found').waitFor();
    expect(await page.getByText(otherName).count()).toBe(0);
    await context.close();
  });
});
