import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { choose, fieldError, recordBodies, section, tableRows, toast } from './screen';
import { fullPageScreenshot } from './screenshots';
import {
  apexKey,
  apiCall,
  createBuyerViaApi,
  createSourceKey,
  DEMO_BUYER_NAME,
  downReceiver,
  startReceiver,
  USERS,
  unique,
} from './support';

/**
 * Issue 27, items 10, 11, 13, 15, 17 and 18: what an operator meets in the first hour on the lead's
 * delivery logs, the simulator, the Messages screen and the campaign form.
 */
const e2e = useBrowser();

const DOWN_TEXT = 'Broadcast target down';
let okReceiver: Awaited<ReturnType<typeof startReceiver>>;
let down: Awaited<ReturnType<typeof downReceiver>>;

beforeAll(async () => {
  okReceiver = await startReceiver(() => ({ body: '{"ok":true}' }));
  down = await downReceiver('/all', DOWN_TEXT);
});
afterAll(async () => {
  await okReceiver?.close();
  await down?.close();
});

interface LoggedLead {
  match: { broadcast_webhooks?: { target: string; accept: boolean }[]; custom?: { accept: boolean }[] }[];
}

describe('the delivery logs of a lead (items 10, 11)', () => {
  it('say partial when one broadcast webhook of two fails, with each channel and the names linked', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const api = page.request;
    const suffix = unique();
    const buyerName = `Partial Broadcast ${suffix}`;
    const buyerId = await createBuyerViaApi(page, buyerName, 'partial');
    const fixedId = `PART-${suffix}`.toUpperCase();
    const campaignName = `Windows Broadcast ${suffix}`;
    const campaign = await apiCall<{ _id: string }>(api, 'post', '/api/match', {
      name: campaignName,
      buyer: buyerId,
      price: 30,
      fixed_id: fixedId,
      services: ['windows'],
      location: 'zip',
      zips: ['10001'],
      notify: { email: [], sms: [], broadcast_webhooks: [`${okReceiver.base}/all`, down.url] },
    });
    await apiCall(api, 'put', `/api/match/${campaign._id}`, { status: 'live' });
    const deliveryName = `Partial CRM ${suffix}`;
    const delivery = await apiCall<{ _id: string }>(api, 'post', '/api/webhook', {
      buyer: buyerId,
      name: deliveryName,
      url: `${okReceiver.base}/crm`,
      status: 'live',
    });

    const key = await apexKey(api, `Partial ${suffix}`);
    const sold = await api.post('/api/lead', {
      headers: { authorization: `Bearer ${key}` },
      data: {
        service: 'windows',
        zip: '10001',
        campaign: fixedId,
        name: `Parker Partial ${suffix}`,
        email: `parker-${suffix}@example.com`,
      },
    });
    const answer = (await sold.json()) as { status?: string; lead_id?: string };
    expect(answer, JSON.stringify(answer)).toMatchObject({ status: 'sold' });
    const leadId = answer.lead_id as string;
    // Both broadcast targets and the custom delivery have been tried.
    await expect
      .poll(
        async () => {
          const lead = await apiCall<LoggedLead>(api, 'get', `/api/lead/${leadId}?includeNotifyLogs=true`);
          const match = lead.match[0];
          return {
            broadcast: new Set((match?.broadcast_webhooks ?? []).map((a) => a.target)).size,
            custom: (match?.custom ?? []).length > 0,
          };
        },
        { timeout: 20_000 },
      )
      .toEqual({ broadcast: 2, custom: true });

    await page.goto(`/lead/${leadId}`);
    const logs = section(page, 'Delivery Logs');
    await logs.getByText('Partially delivered', { exact: true }).waitFor();
    // Never "Delivered" for the match beside a failure.
    const header = logs.getByRole('button', { name: new RegExp(buyerName) }).first();
    expect(await header.textContent()).not.toMatch(/Delivered(?! )/);
    await logs.getByText(`Part of the delivery to ${buyerName} failed: Broadcast webhooks (1 of 2 failed).`).waitFor();
    await logs.getByRole('button', { name: 'Resend' }).waitFor();
    // The Buyers table's Delivery column says it too.
    await tableRows(section(page, 'Buyers')).getByText('Partially delivered', { exact: true }).waitFor();
    // Each channel with its state.
    await logs.getByText('Partial · 1 of 2', { exact: true }).waitFor();
    await logs.getByText('Delivered', { exact: true }).waitFor();
    // The buyer and the campaign by name, linked.
    expect(await logs.getByRole('link', { name: buyerName }).getAttribute('href')).toBe(`/buyer/${buyerId}`);
    expect(await logs.getByRole('link', { name: campaignName }).getAttribute('href')).toBe(`/campaign/${campaign._id}`);
    // The custom delivery's attempt names the delivery (not its id), with a link to it.
    expect(await logs.textContent()).not.toContain(delivery._id);
    await logs.getByRole('button', { name: new RegExp(deliveryName) }).click();
    expect(await logs.getByRole('link', { name: deliveryName }).getAttribute('href')).toBe(`/delivery/${delivery._id}`);
    await fullPageScreenshot(page, 'issue27-delivery-logs-partial');
    await context.close();
  });
});

describe('the simulator (items 11, 13)', () => {
  it('explains a ping refused for its minimum price as nobody winning, and refuses a direct lead it may not post', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const pingOnly = `Ping Only ${unique()}`;
    await createSourceKey(page.request, pingOnly);
    await page.goto('/sim');

    const pingPost = page.getByRole('form', { name: 'Ping-Post Test' });
    await choose(page, pingPost.getByRole('combobox', { name: 'Project' }), 'Roofing');
    await choose(page, pingPost.getByRole('combobox', { name: 'Source' }), 'Apex Lead Partners');
    await pingPost.getByLabel('Zip').fill('75201');
    await pingPost.getByLabel('Min. price').fill('999');
    await pingPost.getByRole('button', { name: 'Send Ping-Post' }).click();
    // The explanation's own card, inside the Ping-Post Test's.
    const decision = pingPost
      .locator('.mantine-Paper-root')
      .filter({ has: page.getByRole('heading', { name: 'Decision Explained', exact: true }) });
    await decision.getByText(/The ping was answered no_match: the source's payout \(\$[\d.]+\) is below/).waitFor();
    const summary = (await decision.textContent()) ?? '';
    expect(summary).toContain('is below its minimum price ($999.00), so no campaign won.');
    expect(summary).toMatch(/campaigns? considered, none won\./);
    expect(summary).not.toContain('Won');
    expect(summary).not.toContain('View buyer');
    await decision.getByRole('link', { name: DEMO_BUYER_NAME }).first().waitFor();

    const direct = page.getByRole('form', { name: 'Direct Lead Test' });
    await choose(page, direct.getByRole('combobox', { name: 'Project' }), 'Roofing');
    await choose(page, direct.getByRole('combobox', { name: 'Source' }), pingOnly);
    await direct.getByLabel('Zip').fill('75201');
    await direct.getByRole('button', { name: 'Send Lead' }).click();
    await direct
      .getByRole('alert')
      .filter({ hasText: 'This source is not approved to post leads directly; use ping and post' })
      .waitFor();
    expect(await direct.getByRole('region', { name: 'Lead answer' }).count()).toBe(0);
    await fullPageScreenshot(page, 'issue27-simulator');
    await context.close();
  });
});

describe('the Messages screen (item 15)', () => {
  it('hides several messages at once, after a confirmation', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const buyers = await apiCall<{ data: { _id: string; name: string }[] }>(
      admin.page.request,
      'get',
      `/api/buyer?name=${encodeURIComponent(DEMO_BUYER_NAME)}`,
    );
    const buyerId = buyers.data.find((b) => b.name === DEMO_BUYER_NAME)?._id;
    const buyer = await e2e.signedIn(USERS.buyer);
    const texts = [`Bulk hide one ${unique()}`, `Bulk hide two ${unique()}`, `Bulk keep ${unique()}`];
    for (const message of texts)
      await apiCall(buyer.page.request, 'post', `/api/buyer/${buyerId}/message`, { message });
    await buyer.context.close();

    const { page } = admin;
    await page.goto('/messages');
    const rowOf = (text: string) => tableRows(page).filter({ hasText: text });
    for (const text of texts) await rowOf(text).waitFor();
    const hideSelected = page.getByRole('button', { name: /^Hide Selected/ });
    expect(await hideSelected.isDisabled()).toBe(true);
    await rowOf(texts[0] as string)
      .getByRole('checkbox')
      .check();
    await rowOf(texts[1] as string)
      .getByRole('checkbox')
      .check();
    await page.getByRole('button', { name: 'Hide Selected (2)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to hide the 2 selected messages?').waitFor();
    await fullPageScreenshot(page, 'issue27-messages-hide-selected');
    await dialog.getByRole('button', { name: 'Hide' }).click();
    await toast(page, '2 messages hidden.').waitFor();
    await rowOf(texts[0] as string).waitFor({ state: 'detached' });
    await rowOf(texts[1] as string).waitFor({ state: 'detached' });
    await rowOf(texts[2] as string).waitFor();
    await admin.context.close();
  });
});

describe('the campaign form (items 17, 18)', () => {
  it('refuses Live without a service on the field, and keeps what was typed with the spec messages', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const api = page.request;
    const buyerId = await createBuyerViaApi(page, `No Service ${unique()}`, 'noservice');
    const name = `No Service Campaign ${unique()}`;
    const created = await apiCall<{ _id: string }>(api, 'post', '/api/match', {
      name,
      buyer: buyerId,
      price: 40,
      services: [],
      location: 'state',
      state: ['TX'],
      notify: { email: ['leads@noservice.example'], sms: [], broadcast_webhooks: [] },
    });
    const puts = recordBodies(page, 'PUT', new RegExp(`/api/match/${created._id}$`));
    await page.goto(`/campaign/${created._id}`);
    await page.getByRole('heading', { name }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('radio', { name: 'Live' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    const services = page.getByRole('combobox', { name: 'Services' });
    await expect
      .poll(() => fieldError(services))
      .toEqual({ invalid: true, message: 'Choose at least one service before setting the campaign Live' });

    // Out-of-range and unreadable numbers stay as typed, and say what is wrong.
    const typed = { 'max.hourly': '0', price: '-5', 'max.monthly': 'abcde', 'max.weekly': '1001.5' };
    for (const [field, text] of Object.entries(typed)) await page.locator(`input[name="${field}"]`).fill(text);
    await page.getByRole('button', { name: 'Save' }).click();
    const messages = {
      'max.hourly': 'Hourly limit must be at least 1',
      price: 'Price must be at least 0',
      'max.monthly': 'Monthly limit must be a number',
      'max.weekly': 'Weekly limit must be a whole number',
    };
    for (const [field, message] of Object.entries(messages)) {
      const input = page.locator(`input[name="${field}"]`);
      await expect.poll(() => fieldError(input)).toEqual({ invalid: true, message });
    }
    // The services message stays with the others.
    expect(await fieldError(services)).toEqual({
      invalid: true,
      message: 'Choose at least one service before setting the campaign Live',
    });
    await page.locator('input[name="max.hourly"]').blur();
    for (const [field, text] of Object.entries(typed))
      expect(await page.locator(`input[name="${field}"]`).inputValue()).toBe(text);
    expect(puts).toEqual([]);
    await fullPageScreenshot(page, 'issue27-campaign-form-messages');
    await context.close();
  });
});
