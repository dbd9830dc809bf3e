import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { choose, section, tableRows } from './screen';
import { fullPageScreenshot, screenshot } from './screenshots';
import {
  addUserWithPassword,
  apexKey,
  apiCall,
  createBuyerViaApi,
  createLiveCampaign,
  type Receiver,
  startReceiver,
  USERS,
  unique,
} from './support';

/**
 * Issue 33 in Chromium: the admin adds a field to a service on Settings; a buyer's campaign filters on
 * it; a source posts two leads carrying it and the campaign buys only the one that qualifies; the lead
 * detail (admin and buyer), the list's column and filter and the CSV show it; the buyer's delivery maps it.
 */
const e2e = useBrowser();
const RUN = unique();
const KEY = `window_count_${RUN.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
const LABEL = `Window Count ${RUN}`;
const ZIP = '59001';

let receiver: Receiver;
const state = { buyerId: '', email: '', password: 'windows-pass-1', fixedId: '', campaignId: '', good: '', poor: '' };

beforeAll(async () => {
  receiver = await startReceiver(() => ({ body: JSON.stringify({ status: 'ok' }) }));
});
afterAll(() => receiver?.close());

describe('a service’s own field, end to end', () => {
  it('the admin adds a field to a service (the Settings screen’s API); a buyer’s campaign filters on it', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const before = await apiCall<{ fields: object[] }>(page.request, 'get', '/api/services/windows/fields');
    await apiCall(page.request, 'put', '/api/services/windows/fields', {
      fields: [...before.fields, { key: KEY, label: LABEL, type: 'number', stage: 'ping' }],
    });

    // A buyer with a user, a live delivery mapping the field, and a campaign buying 5 windows or more.
    const api = page.request;
    state.buyerId = await createBuyerViaApi(page, `Clearview Windows ${RUN}`, 'clearview');
    state.email = `windows-${RUN}@clearview.example`;
    await addUserWithPassword(
      api,
      { kind: 'buyer', id: state.buyerId },
      { name: 'Wes Glass', email: state.email, password: state.password },
    );
    await apiCall(api, 'post', '/api/webhook', {
      buyer: state.buyerId,
      name: `Clearview CRM ${RUN}`,
      url: `${receiver.base}/leads`,
      status: 'live',
      map: [
        { field: 'name', value: 'full_name' },
        { field: `fields.${KEY}`, value: 'windows' },
      ],
    });
    state.fixedId = `WIN-${RUN}`.toUpperCase();
    const campaign = await createLiveCampaign(api, {
      name: `Windows Montana ${RUN}`,
      buyer: state.buyerId,
      price: 90,
      fixed_id: state.fixedId,
      service: 'windows',
      zip: ZIP,
      email: [`leads-${RUN}@clearview.example`],
    });
    state.campaignId = campaign._id;
    await apiCall(api, 'put', `/api/match/${campaign._id}`, {
      field_filters: [{ field: KEY, op: 'at_least', value: 5 }],
    });
    await context.close();
  }, 180_000);

  it('a source posts the field: the campaign buys only the lead that qualifies, and its delivery maps it', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const key = await apexKey(page.request, `Windows e2e ${RUN}`);
    const post = async (name: string, windows: string) => {
      const res = await page.request.post('/api/lead', {
        headers: { authorization: `Bearer ${key}` },
        data: {
          service: 'windows',
          zip: ZIP,
          name,
          phone: windows === '8' ? '4062310188' : '4062310122',
          email: `${name.toLowerCase().replace(/\W+/g, '.')}@example.com`,
          tcpa_consent: true,
          [KEY]: windows,
        },
      });
      const answer = (await res.json()) as { ok: boolean; status?: string; lead_id?: string };
      expect(res.status(), JSON.stringify(answer)).toBe(200);
      return answer;
    };
    const good = await post(`Morgan Eight ${RUN}`, '8');
    expect(good, JSON.stringify(good)).toMatchObject({ ok: true, status: 'sold' });
    const poor = await post(`Riley Two ${RUN}`, '2');
    state.good = good.lead_id as string;
    state.poor = poor.lead_id as string;
    // The buyer's system got the lead with the field under its own name.
    await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(1);
    const sent = JSON.parse(receiver.received[0]?.body ?? '{}') as Record<string, unknown>;
    expect(sent).toMatchObject({ full_name: `Morgan Eight ${RUN}`, windows: 8 });
    expect(receiver.received).toHaveLength(1);
    await context.close();
  }, 180_000);

  it('the buyer’s campaign shows the rule; its leads list holds only the qualifying lead, with the field', async () => {
    const { context, page } = await e2e.signedIn({ username: state.email, password: state.password });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/campaign/${state.campaignId}`);
    const filters = section(page, 'Field Filters');
    await filters.waitFor();
    await screenshot(filters, 'service-fields-campaign-filter');

    const list = await apiCall<{ data: { _id: string; fields?: Record<string, unknown> }[] }>(
      page.request,
      'get',
      '/api/lead/date/today?service=windows',
    );
    expect(list.data.map((l) => l._id)).toEqual([state.good]);
    expect(list.data[0]?.fields?.[KEY]).toBe(8);

    await page.goto(`/lead/${state.good}`);
    const own = section(page, 'Service Fields');
    await expect.poll(() => own.getByRole('textbox', { name: LABEL }).inputValue()).toBe('8');
    await fullPageScreenshot(page, 'service-fields-buyer-lead');
    expect((await page.request.get(`/api/lead/${state.poor}`)).status()).toBe(404);
    await context.close();
  }, 180_000);

  it('the admin sees it on the lead, as a list column and filter, and in the CSV', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/lead/${state.good}`);
    const own = section(page, 'Service Fields');
    await expect.poll(() => own.getByRole('textbox', { name: LABEL }).inputValue()).toBe('8');
    await screenshot(own, 'service-fields-admin-lead');

    // The list: the field as a column, then a filter on it.
    await page.goto('/leads?service=windows');
    await tableRows(page).first().waitFor();
    await page.getByRole('button', { name: 'Service fields' }).click();
    await page.getByRole('checkbox', { name: LABEL }).check();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: LABEL }).waitFor();
    const goodRow = tableRows(page).filter({ hasText: `Morgan Eight ${RUN}` });
    await expect.poll(() => goodRow.textContent()).toContain('8');
    await page.goto(`/leads?service=windows&field=${encodeURIComponent(`${KEY}:8`)}`);
    await page.getByRole('columnheader', { name: LABEL }).waitFor();
    await expect.poll(() => tableRows(page).count()).toBe(1);
    expect(await tableRows(page).first().textContent()).toContain(`Morgan Eight ${RUN}`);
    await fullPageScreenshot(page, 'service-fields-leads-list');

    // The CSV: the field after the 18 columns.
    const res = await page.request.get('/api/lead/date/today/export.csv?service=windows');
    expect(res.status()).toBe(200);
    const lines = (await res.text()).trim().split('\n');
    const header = lines[0]?.split(',') ?? [];
    const at = header.indexOf(LABEL);
    expect(at).toBeGreaterThanOrEqual(18);
    const row = lines.find((l) => l.includes(`Morgan Eight ${RUN}`))?.split(',') ?? [];
    expect(row[at]).toBe('8');
    const poorRow = lines.find((l) => l.includes(`Riley Two ${RUN}`))?.split(',') ?? [];
    expect(poorRow[at]).toBe('2');

    // The delivery template offers the field with a sample.
    const template = await apiCall<{ fields: { field: string; sample: string }[] }>(
      page.request,
      'get',
      '/api/webhook/new',
    );
    expect(template.fields).toContainEqual({ field: `fields.${KEY}`, sample: '3' });
    await context.close();
  }, 180_000);

  it('Settings lists the field under its service', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/settings');
    const fields = section(page, 'Service Fields');
    await choose(page, fields.getByRole('textbox', { name: 'Service' }), 'Windows');
    await fields.getByText(LABEL, { exact: true }).waitFor();
    await screenshot(fields, 'service-fields-settings');
    await context.close();
  }, 180_000);
});
