import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { choose, expectErrorToast, fieldError, recordBodies, recordRequests, tableRows, toast } from './screen';
import { fullPageScreenshot, screenshot } from './screenshots';
import { expectCreated, expectPath, navigation, USERS, unique } from './support';

const e2e = useBrowser();

/** A campaign id of another buyer than the demo buyer's, found with the admin's session. */
async function otherBuyersCampaign(): Promise<string> {
  const { context, page } = await e2e.signedIn(USERS.admin);
  const response = await page.request.get('/api/match?buyer_name=BrightPath');
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: { _id: string; buyer_name: string }[] };
  await context.close();
  const found = data.find((c) => c.buyer_name === 'BrightPath Solar');
  if (!found) throw new Error('no BrightPath campaign seeded');
  return found._id;
}

// First in this file, on the freshly seeded exchange: the lists show the demo campaigns only.
describe('screenshots for the issue (docs/screenshots)', () => {
  it('the campaigns list and a campaign in edit mode, 1440 wide, full page', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });

    await page.goto('/campaigns');
    await tableRows(page).filter({ hasText: 'Roofing - Dallas Metro shared' }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'campaigns-list', { fullPage: true });

    await tableRows(page).filter({ hasText: 'Roofing - Dallas Metro shared' }).click();
    await expectPath(page, /^\/campaign\/cmp_/);
    await page.getByRole('heading', { name: 'Roofing - Dallas Metro shared' }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('radio', { name: 'Live' }).waitFor();
    await page.getByRole('heading', { name: 'Source Restrictions' }).waitFor();
    await page.getByRole('button', { name: 'Create Region' }).waitFor();
    await fullPageScreenshot(page, 'campaign-detail-edit');
    // Leave without saving: the demo campaign stays as seeded.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });
});

/** Admin §2 Campaigns list and Campaign detail; §5 Campaign validation. */
describe('an admin creating a campaign', () => {
  it('shows the validation messages, saves a draft, sets it live and finds it in the list', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const posts = recordRequests(page, 'POST', /\/api\/match$/);
    const name = `Storm Roofing ${unique()}`;

    await navigation(page).getByRole('link', { name: 'Campaigns' }).click();
    await expectPath(page, '/campaigns');
    await page.getByRole('link', { name: 'Create New Campaign' }).click();
    await expectPath(page, '/campaign/new');
    await page.getByRole('heading', { name: 'New Campaign' }).waitFor();
    // A new campaign starts in edit mode with Save only.
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);

    // Saving the empty form shows the spec's messages and sends nothing.
    await page.getByRole('button', { name: 'Save' }).click();
    const states = page.getByRole('combobox', { name: 'States' });
    await expect
      .poll(() => fieldError(states))
      .toEqual({ invalid: true, message: 'At least one state is required when location is set to state' });
    await page.getByText('At least one notification method must be configured', { exact: true }).waitFor();
    expect((await fieldError(page.getByRole('textbox', { name: 'Name' }))).message).toBe('Name is required');
    expect((await fieldError(page.getByRole('combobox', { name: 'Buyer' }))).message).toBe('Buyer is required');
    expect((await fieldError(page.locator('input[name="price"]'))).message).toBe('Price is required');

    // Location Zip: 3-4 digits are padded, what cannot be read is listed in red.
    await choose(page, page.getByRole('combobox', { name: 'Location' }), 'Zip');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('At least one zip code is required when location is set to zip').waitFor();
    const zips = page.getByRole('combobox', { name: 'Zip codes' });
    await zips.fill('75201, 501 12');
    await zips.press('Enter');
    await page.getByText('Invalid values entered:').waitFor();
    await page.getByText('12', { exact: true }).waitFor();
    await page.getByText('00501', { exact: true }).waitFor();
    await page.getByText('75201', { exact: true }).waitFor();
    expect(posts).toEqual([]);

    // The form filled: choosing the buyer copies its lead delivery.
    await page.getByRole('textbox', { name: 'Name' }).fill(name);
    const buyer = page.getByRole('combobox', { name: 'Buyer' });
    await buyer.fill('Summit');
    await page.getByRole('option', { name: 'Summit Roofing Co.', exact: true }).click();
    await page.getByText('dispatch@summitroofing.example').waitFor();
    await page.locator('input[name="price"]').fill('41.25');
    await page.locator('input[name="max.daily"]').fill('25');
    await page.getByRole('button', { name: 'Save' }).click();

    // Saved as a draft; the page moves to the new campaign, read-only.
    const id = await expectCreated(page, /^\/campaign\/cmp_/, name);
    expect(posts).toHaveLength(1);
    await page.getByText('Draft', { exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Buyer' }).inputValue()).toBe('Summit Roofing Co.');
    expect(await page.getByRole('textbox', { name: 'Branded Id' }).inputValue()).toMatch(/^SUMMIT-[A-Z2-9]{4}$/);

    // Edit: set it live and give it a service.
    const puts = recordBodies(page, 'PUT', new RegExp(`/api/match/${id}$`));
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('radio', { name: 'Live' }).check();
    await choose(page, page.getByRole('combobox', { name: 'Services' }), 'Roofing');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(puts).toEqual([{ status: { live: true, draft: false, pause: false }, services: ['roofing'] }]);
    await page.getByText('Live', { exact: true }).waitFor();

    // The Campaigns list, searched by buyer name and filtered by service, shows it live.
    await page.getByRole('main').getByRole('link', { name: 'Campaigns', exact: true }).click();
    await expectPath(page, '/campaigns');
    await page.getByRole('textbox', { name: 'Search by buyer name' }).fill('Summit Roofing');
    await choose(page, page.getByRole('combobox', { name: 'Filter by service' }), 'Roofing');
    await expect.poll(() => new URL(page.url()).searchParams.get('service')).toBe('roofing');
    const row = tableRows(page).filter({ hasText: name });
    await row.waitFor();
    const cells = (await row.locator('td').allInnerTexts()).map((text) => text.trim());
    expect(cells[0]).toContain(name);
    expect(cells.slice(1)).toEqual(['Summit Roofing Co.', 'Roofing', 'Live']);
    await row.click();
    await expectPath(page, `/campaign/${id}`);
    await context.close();
  });

  it("marks the Branded Id field with the server's 'Branded Id is already in use'", async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const list = await page.request.get('/api/match?buyer_name=Summit');
    const [first, second] = ((await list.json()) as { data: { _id: string; fixed_id: string }[] }).data;
    if (!first || !second) throw new Error('two Summit campaigns expected');
    await page.goto(`/campaign/${first._id}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Branded Id' }).fill(second.fixed_id);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => fieldError(page.getByRole('textbox', { name: 'Branded Id' })))
      .toEqual({ invalid: true, message: 'Branded Id is already in use' });
    await expectErrorToast(page, 'Branded Id is already in use');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('textbox', { name: 'Branded Id' }).inputValue()).toBe(first.fixed_id);
    await context.close();
  });
});

/** Portals §2 Buyer campaigns list and Buyer campaign detail. */
describe("a buyer's campaigns", () => {
  it('lists only its own campaigns, with service badges and status badges', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    await navigation(page).getByRole('link', { name: 'Campaigns' }).click();
    await expectPath(page, '/campaigns');
    await page.getByRole('heading', { name: 'Campaigns' }).waitFor();
    await tableRows(page).filter({ hasText: 'Roofing - Texas & Oklahoma' }).waitFor();
    const names = await tableRows(page).locator('td:first-child').allInnerTexts();
    for (const seeded of ['Solar - Southwest', 'HVAC - NYC Core', 'HVAC - Florida'])
      expect(names.some((n) => n.includes(seeded))).toBe(false);
    // Only its own, also through the API, whatever it asks for.
    const other = await otherBuyersCampaign();
    const api = (await (await page.request.get('/api/match?pageSize=200')).json()) as {
      data: { _id: string; buyer_name: string }[];
    };
    expect(api.data.length).toBeGreaterThan(0);
    expect(api.data.every((c) => c.buyer_name === 'Summit Roofing Co.')).toBe(true);
    expect(api.data.some((c) => c._id === other)).toBe(false);
    expect(await page.getByRole('textbox', { name: 'Search by buyer name' }).count()).toBe(0);
    await page.getByRole('combobox', { name: 'Filter by service' }).waitFor();
    await page.getByRole('link', { name: 'Create New Campaign' }).waitFor();
    await context.close();
  });

  it('edits its own campaign, never sees Source Restrictions, and finds no other buyer’s campaign', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    // A campaign of its own to edit (the seeded ones stay as they are for other tests).
    const name = `Gutter Guards ${unique()}`;
    const created = await page.request.post('/api/match', {
      data: {
        name,
        price: 30,
        location: 'state',
        state: ['TX'],
        services: ['gutters'],
        notify: { email: ['leads@summitroofing.example'] },
      },
    });
    expect(created.status()).toBe(201);
    const { _id: id } = (await created.json()) as { _id: string };

    await page.goto(`/campaign/${id}`);
    await page.getByRole('heading', { name }).waitFor();
    await page.getByRole('heading', { name: 'Campaign Details' }).waitFor();
    await page.getByRole('heading', { name: 'Time Restrictions' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Source Restrictions' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.locator('input[name="max.daily"]').fill('12');
    await page.getByRole('switch', { name: 'Time Restrictions' }).click({ force: true });
    // On fills the defaults: Eastern, 7 AM to 7 PM.
    expect(await page.getByRole('combobox', { name: 'Time Zone' }).inputValue()).toBe('Eastern');
    expect(await page.getByRole('combobox', { name: 'Weekday Start' }).inputValue()).toBe('7 AM');
    expect(await page.getByRole('combobox', { name: 'Weekend End' }).inputValue()).toBe('7 PM');
    expect(await page.getByRole('heading', { name: 'Source Restrictions' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    await toast(page, `${name} updated successfully`).waitFor();

    await page.reload();
    await page.getByRole('heading', { name }).waitFor();
    await expect.poll(() => page.locator('input[name="max.daily"]').inputValue()).toBe('12');
    expect(await page.getByRole('textbox', { name: 'Weekday End' }).inputValue()).toBe('7 PM');

    // Another buyer's campaign does not exist for this buyer.
    const foreign = await otherBuyersCampaign();
    await page.goto(`/campaign/${foreign}`);
    await page.getByText('Campaign not found', { exact: true }).first().waitFor();
    await expectErrorToast(page, 'Campaign not found');
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect((await page.request.get(`/api/match/${foreign}`)).status()).toBe(404);
    await context.close();
  });
});
