import { PING_FIELD_NAMES } from '@leadex/domain';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForSettled } from './accessibility';
import { useBrowser } from './browser';
import { closeToast, fieldError, openDeliveryTest, section, tableRows } from './screen';
import { fullPageScreenshot, screenshot } from './screenshots';
import {
  addUserWithPassword,
  apiCall,
  createBuyerViaApi,
  createLiveCampaign,
  createSourceKey,
  expectCreated,
  expectPath,
  navigation,
  type ReceivedRequest,
  type Receiver,
  startReceiver,
  USERS,
  unique,
} from './support';

const e2e = useBrowser();

/** What the buyer's system answers a ping: a $40 bid with its own id, and a note that must stay text. */
const BID_DOLLARS = 40;
const NOTE = '<b>fresh</b>';

/**
 * The buyer's own system on 127.0.0.1: /bid answers each ping with a bid (BID-1, BID-2, …), /leads
 * accepts each post. It keeps what it was sent.
 */
let buyerSystem: Receiver;
let base: string;
const pings: ReceivedRequest[] = [];
const posts: ReceivedRequest[] = [];

beforeAll(async () => {
  buyerSystem = await startReceiver((request) => {
    if (request.url === '/bid') {
      pings.push(request);
      return { body: JSON.stringify({ bid: BID_DOLLARS, id: `BID-${pings.length}`, note: NOTE }) };
    }
    posts.push(request);
    return { body: JSON.stringify({ status: 'ok', id: `LEAD-${posts.length}` }) };
  });
  base = buyerSystem.base;
});
afterAll(() => buyerSystem?.close());

/** The value input of a template mapping row: of the ping's mapping (`ping.map`) or of the post's (`map`). */
async function mappingValue(page: Page, list: 'ping.map' | 'map', field: string) {
  const name = await page.locator(`input[type="hidden"][name^="${list}."][value="${field}"]`).getAttribute('name');
  if (!name?.endsWith('.field')) throw new Error(`no ${list} row for ${field}`);
  return page.locator(`input[name="${name.replace(/\.field$/, '.value')}"]`);
}

/** A buyer with a user who signs in, and a live $30 campaign of its aimed at by a Branded Id. */
interface Bidder {
  buyerName: string;
  email: string;
  password: string;
  campaignName: string;
  fixedId: string;
}

/** DESIGN.md §6 Ping/Post, issue 16: a buyer's own system bids on each lead before it is sold. */
describe('a Ping/Post custom delivery', () => {
  let bidder: Bidder;
  let sourceKey: string;
  let delivery: { id: string; name: string };

  beforeAll(async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const api = page.request;
    const suffix = unique();
    const buyerName = `Ridgeline Bids ${suffix}`;
    const buyerId = await createBuyerViaApi(page, buyerName, 'ridgeline');
    const email = `bids-${suffix}@ridgeline.example`;
    const password = 'ridgeline-pass-1';
    await addUserWithPassword(api, { kind: 'buyer', id: buyerId }, { name: 'Casey Lin', email, password });
    const fixedId = `BID-${suffix}`.toUpperCase();
    const campaign = await createLiveCampaign(api, {
      name: `Roofing Bids ${suffix}`,
      buyer: buyerId,
      price: 30,
      fixed_id: fixedId,
      service: 'roofing',
      zip: '10001',
      email: [`leads-${suffix}@ridgeline.example`],
    });
    sourceKey = await createSourceKey(api, `Bid Source ${suffix}`);
    bidder = { buyerName, email, password, campaignName: campaign.name, fixedId };
    await context.close();
  });

  it('a buyer creates one: the type, the ping with its checks, the post echoing its bid id', async () => {
    const { context, page } = await e2e.signedIn({ username: bidder.email, password: bidder.password });
    await page.setViewportSize({ width: 1440, height: 900 });
    await navigation(page).getByRole('link', { name: 'Custom Deliveries' }).click();
    await expectPath(page, '/deliveries');
    await page.getByRole('link', { name: 'Create Custom Delivery' }).click();
    await page.getByRole('heading', { name: 'New Custom Delivery' }).waitFor();

    // Direct by default: no ping asked for. Ping/Post opens the Ping section.
    expect(await page.getByRole('radio', { name: 'Direct' }).isChecked()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Ping', exact: true }).count()).toBe(0);
    await page.getByRole('radio', { name: 'Ping/Post' }).check();
    await page.getByRole('heading', { name: 'Ping', exact: true }).waitFor();
    // The ping's mapping offers the non-personal fields only, and says contact data is never sent.
    await page.getByText('personal fields are never sent in a ping').waitFor();
    const pingFields = await page
      .locator('input[type="hidden"][name^="ping.map."]')
      .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));
    expect(pingFields).toEqual(PING_FIELD_NAMES);

    // The ping's own messages (the shared schema's), and a timeout out of range.
    const name = `Ridgeline bidder ${unique()}`;
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(`${base}/leads`);
    const timeout = page.getByRole('textbox', { name: 'Timeout (ms)' });
    expect(await timeout.inputValue()).toBe('1,000');
    await timeout.fill('5000');
    await page.getByRole('button', { name: 'Save' }).click();
    const pingUrl = page.getByRole('textbox', { name: 'Ping URL' });
    await expect.poll(() => fieldError(pingUrl)).toEqual({ invalid: true, message: 'Ping URL is required' });
    // (Each of these two inputs is also described by its hint.)
    expect((await fieldError(page.getByRole('textbox', { name: 'Bid Price Field' }))).message).toMatch(
      /^Bid price field is required /,
    );
    expect((await fieldError(timeout)).message).toMatch(
      /^Ping timeout must be a whole number of milliseconds from 1 to 3000 /,
    );

    // The ping filled in: where, what it sends, where the answer holds the bid and its id.
    await pingUrl.fill(`${base}/bid`);
    await page.getByRole('textbox', { name: 'Bid Price Field' }).fill('bid');
    await page.getByRole('textbox', { name: 'Buyer Ping ID Field' }).fill('id');
    await timeout.fill('2000');
    await (await mappingValue(page, 'ping.map', 'service')).fill('Service');
    await (await mappingValue(page, 'ping.map', 'zip')).fill('Zip');
    // The post: accepted on status ok; it sends the contact fields and echoes the bid's id.
    await page.getByRole('textbox', { name: 'Return ID' }).fill('id');
    await page.getByRole('button', { name: 'Add Accept Rule' }).click();
    await page.getByRole('textbox', { name: 'Accept 1 Field' }).fill('status');
    await page.getByRole('textbox', { name: 'Accept 1 Value' }).fill('ok');
    await (await mappingValue(page, 'map', 'first_name')).fill('FirstName');
    await (await mappingValue(page, 'map', 'phone')).fill('Phone');
    await (await mappingValue(page, 'map', 'buyer_ping_id')).fill('BidId');
    await page.getByRole('radio', { name: 'Live' }).check();
    await page.getByRole('button', { name: 'Save' }).click();

    const id = await expectCreated(page, /^\/delivery\/whk_/, name);
    delivery = { id, name };
    await closeToast(page, `${name} created successfully`);
    const saved = await apiCall<{ ping_id: string; ping: object }>(page.request, 'get', `/api/webhook/${id}`);
    expect(saved).toMatchObject({
      ping_id: 'ping_post',
      ping: {
        url: `${base}/bid`,
        price_field: 'bid',
        ping_id_field: 'id',
        timeout_ms: 2000,
        map: [
          { field: 'service', value: 'Service' },
          { field: 'zip', value: 'Zip' },
        ],
      },
    });
    // Read-only: the type named, the ping's values shown.
    expect(await page.getByRole('textbox', { name: 'Type', exact: true }).inputValue()).toBe('Ping/Post');
    expect(await page.getByRole('textbox', { name: 'Ping URL' }).inputValue()).toBe(`${base}/bid`);
    expect(await page.getByRole('textbox', { name: 'Timeout (ms)' }).inputValue()).toBe('2,000');
    await fullPageScreenshot(page, 'delivery-ping-post');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Test: a test ping (its bid and the buyer's id of it), then a test post echoing that id.
    const { dialog, inputs } = await openDeliveryTest(page);
    expect(inputs).toEqual(['test_service', 'test_zip', 'test_first_name', 'test_phone']);
    await dialog.getByRole('textbox', { name: 'zip' }).fill('78701');
    // Tall enough for both answers: the result needs no scrolling into view before the capture.
    await page.setViewportSize({ width: 1440, height: 2600 });
    await dialog.getByRole('button', { name: 'Send Test' }).click();
    const ping = dialog.getByTestId('ping-response');
    await ping.getByText('Bid $40.00', { exact: true }).waitFor();
    await ping.getByText(/Buyer Ping ID BID-1/).waitFor();
    await ping.getByText(`${base}/bid`, { exact: true }).waitFor();
    const post = dialog.getByTestId('test-response');
    await post.getByRole('heading', { name: 'Post Response' }).waitFor();
    await post.getByText('Accepted', { exact: true }).waitFor();
    expect(await post.textContent()).toContain('"BidId": "BID-1"');
    expect(pings).toHaveLength(1);
    expect(JSON.parse(pings[0]?.body ?? '')).toEqual({ Service: 'roofing', Zip: '78701' });
    expect(pings[0]?.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(posts[0]?.body ?? '')).toEqual({ FirstName: 'Jane', Phone: '5125550100', BidId: 'BID-1' });
    await waitForSettled(page);
    await screenshot(dialog, 'delivery-ping-post-test');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('a lead sold through its bid shows the ping and the post on the admin lead detail, and the bid explained', async () => {
    if (!delivery) throw new Error('the delivery of the first test is missing');
    const { context, page } = await e2e.signedIn(USERS.admin);
    const api = page.request;
    const pinged = pings.length;
    const posted = posts.length;

    // The source pings (no contact data), the buyer's system bids $40 over its campaign's $30, the post sells.
    const auth = { authorization: `Bearer ${sourceKey}` };
    const quote = (await (
      await api.post('/api/ping', {
        headers: auth,
        data: { service: 'roofing', zip: '10001', campaign: bidder.fixedId },
      })
    ).json()) as { ok: boolean; ping_id?: string };
    expect(quote, JSON.stringify(quote)).toMatchObject({ ok: true });
    expect(pings).toHaveLength(pinged + 1);
    expect(JSON.parse(pings[pinged]?.body ?? '')).toEqual({ Service: 'roofing', Zip: '10001' });
    const leadName = `Morgan Ellis ${unique()}`;
    const sold = (await (
      await api.post('/api/post', {
        headers: auth,
        data: {
          ping_id: quote.ping_id,
          name: leadName,
          phone: `512555${String(1000 + Math.floor(Math.random() * 8999))}`,
          email: `morgan-${unique()}@example.com`,
        },
      })
    ).json()) as { ok: boolean; status: string; lead_id: string };
    expect(sold).toMatchObject({ ok: true, status: 'sold' });
    // The winner's post ran inline, echoing the id of the bid it won with; no second ping.
    expect(posts).toHaveLength(posted + 1);
    expect(JSON.parse(posts[posted]?.body ?? '')).toMatchObject({ BidId: `BID-${pinged + 1}` });
    expect(pings).toHaveLength(pinged + 1);

    // Pings are logged in the engine's batches (as ping records are): wait until this one is written.
    await expect
      .poll(async () => (await apiCall<{ pings?: unknown[] }>(api, 'get', `/api/lead/${sold.lead_id}`)).pings?.length)
      .toBe(1);

    await page.goto(`/lead/${sold.lead_id}`);
    await page.getByRole('heading', { name: leadName }).waitFor();
    // Sold at the bid.
    const buyersRow = tableRows(section(page, 'Buyers')).filter({ hasText: bidder.buyerName });
    await buyersRow.getByText('$40.00').waitFor();

    // The ping: buyer, delivery, the bid and status, and what was sent and answered, as text.
    const pingsSection = section(page, 'Pings');
    const call = pingsSection.getByRole('button').filter({ hasText: bidder.buyerName });
    await call.waitFor();
    expect(await call.textContent()).toContain(delivery.name);
    await call.getByText('Bid $40.00 · 200').waitFor();
    await call.click();
    await pingsSection.getByText(`Buyer Ping ID`).waitFor();
    await pingsSection.getByText(`BID-${pinged + 1}`, { exact: true }).waitFor();
    const pingText = (await pingsSection.textContent()) ?? '';
    expect(pingText).toContain(`${base}/bid`);
    expect(pingText).toContain('"Service":"roofing"');
    expect(pingText).toContain(NOTE);
    // The buyer's answer is shown, never run: its markup stays text.
    expect(await pingsSection.locator('b').count()).toBe(0);
    expect(await pingsSection.getByRole('link', { name: delivery.name }).getAttribute('href')).toBe(
      `/delivery/${delivery.id}`,
    );

    // The post: the custom delivery's attempt on the match, echoing the bid's id.
    const logs = section(page, 'Delivery Logs');
    await logs.getByRole('heading', { name: 'Custom delivery' }).waitFor();
    // Named by the delivery, not its id (issue 27).
    const attempt = logs.getByRole('button').filter({ hasText: delivery.name });
    await attempt.getByText('Accepted · 200').waitFor();
    await attempt.click();
    await logs.getByText(`"BidId":"BID-${pinged + 1}"`, { exact: false }).waitFor();

    // The decision explained names the bid.
    const explained = tableRows(section(page, 'Decision Explained')).filter({ hasText: bidder.campaignName });
    await explained.getByText('Won', { exact: true }).waitFor();
    await explained.getByText('Bid $40.00', { exact: true }).waitFor();
    await fullPageScreenshot(page, 'lead-ping-post-detail');
    await context.close();
  });
});
