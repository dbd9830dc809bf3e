import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { choose, chooseAndWait, closeToast, section, tableRows, toast } from './screen';
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
 * Issue 33 in Chromium: the admin adds two fields to a service on Settings; a buyer's campaign filters on
 * one of them on its campaign screen; a source posts two leads carrying them and the campaign buys only the
 * one that qualifies; the lead detail (admin and buyer), the list's columns and its filters on both fields,
 * and the CSV show them; the buyer's delivery maps the field.
 */
const e2e = useBrowser();
const RUN = unique();
const SUFFIX = RUN.toLowerCase().replace(/[^a-z0-9]/g, '');
const KEY = `window_count_${SUFFIX}`;
const LABEL = `Window Count ${RUN}`;
const FRAME_KEY = `frame_${SUFFIX}`;
const FRAME = `Frame ${RUN}`;
const ZIP = '59001';

let receiver: Receiver;
const state = { buyerId: '', email: '', password: 'windows-pass-1', fixedId: '', campaignId: '', good: '', poor: '' };

beforeAll(async () => {
  receiver = await startReceiver(() => ({ body: JSON.stringify({ status: 'ok' }) }));
});
afterAll(() => receiver?.close());

/** Adds a field through the Settings section's modal (not saved until Save fields). */
async function addField(
  page: Page,
  field: { label: string; key: string; type: string; stage: 'Ping and post' | 'Post only'; options?: string[] },
) {
  const fields = section(page, 'Service Fields');
  await fields.getByRole('button', { name: 'Add field' }).click();
  const modal = page.getByRole('dialog', { name: 'Add field' });
  await modal.getByRole('textbox', { name: 'Label', exact: true }).fill(field.label);
  await modal.getByRole('textbox', { name: 'Key', exact: true }).fill(field.key);
  await choose(page, modal.getByRole('combobox', { name: 'Type' }), field.type);
  for (const option of field.options ?? []) {
    await modal.getByRole('combobox', { name: 'Options' }).fill(option);
    await page.keyboard.press('Enter');
  }
  await modal.getByText(field.stage, { exact: true }).click();
  await modal.getByRole('button', { name: 'Add field' }).click();
  await modal.waitFor({ state: 'detached' });
  await fields.getByText(field.label, { exact: true }).waitFor();
}

describe('a service’s own field, end to end', () => {
  it('the admin adds two fields to a service on the Settings screen', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/settings');
    const fields = section(page, 'Service Fields');
    await chooseAndWait(page, fields.getByRole('combobox', { name: 'Service' }), 'Windows');
    await addField(page, { label: LABEL, key: KEY, type: 'Number', stage: 'Ping and post' });
    await addField(page, {
      label: FRAME,
      key: FRAME_KEY,
      type: 'Choice',
      stage: 'Post only',
      options: ['Vinyl', 'Wood'],
    });
    await fields.getByRole('button', { name: 'Save fields' }).click();
    await toast(page, 'The service’s fields were saved').waitFor();
    await closeToast(page, 'The service’s fields were saved');
    await screenshot(fields, 'service-fields-settings');

    // Saved: the service's definitions hold both, the number sent at the ping, the choice at the post.
    const saved = await apiCall<{ fields: { key: string; type: string; stage: string; options: string[] }[] }>(
      page.request,
      'get',
      '/api/services/windows/fields',
    );
    expect(saved.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: KEY, type: 'number', stage: 'ping' }),
        expect.objectContaining({ key: FRAME_KEY, type: 'choice', stage: 'post', options: ['Vinyl', 'Wood'] }),
      ]),
    );

    // A buyer with a user, a live delivery mapping the field, and a campaign of windows in Montana.
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
        { field: `fields.${FRAME_KEY}`, value: 'frame' },
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
    await context.close();
  }, 180_000);

  it('the buyer filters its campaign on the field, on its campaign screen', async () => {
    const { context, page } = await e2e.signedIn({ username: state.email, password: state.password });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/campaign/${state.campaignId}`);
    const filters = section(page, 'Field Filters');
    await filters.getByText('None', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await filters.getByRole('button', { name: 'Add Filter' }).click();
    await choose(page, filters.getByRole('combobox', { name: 'Field' }), `${LABEL} (windows)`);
    await choose(page, filters.getByRole('combobox', { name: 'Operator' }), 'at least');
    await filters.getByRole('textbox', { name: 'Value' }).fill('5');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    const saved = await apiCall<{ field_filters: object[] }>(page.request, 'get', `/api/match/${state.campaignId}`);
    expect(saved.field_filters).toEqual([expect.objectContaining({ field: KEY, op: 'at_least', value: 5 })]);
    await screenshot(filters, 'service-fields-campaign-filter');
    await context.close();
  }, 180_000);

  it('a source posts the fields: the campaign buys only the lead that qualifies, and its delivery maps them', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const key = await apexKey(page.request, `Windows e2e ${RUN}`);
    const post = async (name: string, windows: string, frame: string) => {
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
          [FRAME_KEY]: frame,
        },
      });
      const answer = (await res.json()) as { ok: boolean; status?: string; lead_id?: string };
      expect(res.status(), JSON.stringify(answer)).toBe(200);
      return answer;
    };
    const good = await post(`Morgan Eight ${RUN}`, '8', 'wood');
    expect(good, JSON.stringify(good)).toMatchObject({ ok: true, status: 'sold' });
    const poor = await post(`Riley Two ${RUN}`, '2', 'Vinyl');
    state.good = good.lead_id as string;
    state.poor = poor.lead_id as string;
    // The campaign left the poor lead out, and its explanation names the rule.
    const detail = await apiCall<{ explanation?: unknown }>(
      page.request,
      'get',
      `/api/lead/${state.poor}?includeMatchLog=true`,
    );
    expect(JSON.stringify(detail)).toContain(`Filter: ${LABEL} at least 5 (lead: 2)`);
    // The buyer's system got the qualifying lead only, with the fields under its own names.
    await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(1);
    const sent = JSON.parse(receiver.received[0]?.body ?? '{}') as Record<string, unknown>;
    expect(sent).toMatchObject({ full_name: `Morgan Eight ${RUN}`, windows: 8, frame: 'Wood' });
    expect(receiver.received).toHaveLength(1);
    await context.close();
  }, 180_000);

  it('the buyer’s leads list holds only the qualifying lead, with the fields on its detail', async () => {
    const { context, page } = await e2e.signedIn({ username: state.email, password: state.password });
    await page.setViewportSize({ width: 1440, height: 900 });
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
    await expect.poll(() => own.getByRole('textbox', { name: FRAME }).inputValue()).toBe('Wood');
    await fullPageScreenshot(page, 'service-fields-buyer-lead');
    expect((await page.request.get(`/api/lead/${state.poor}`)).status()).toBe(404);
    await context.close();
  }, 180_000);

  it('the admin sees them on the lead, as list columns, filters on both fields at once, and in the CSV', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/lead/${state.good}`);
    const own = section(page, 'Service Fields');
    await expect.poll(() => own.getByRole('textbox', { name: LABEL }).inputValue()).toBe('8');
    await screenshot(own, 'service-fields-admin-lead');

    // The list: the fields as columns.
    await page.goto('/leads?service=windows');
    await tableRows(page).first().waitFor();
    await page.getByRole('button', { name: 'Service fields' }).click();
    await page.getByRole('checkbox', { name: LABEL }).check();
    await page.getByRole('checkbox', { name: FRAME }).check();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: LABEL }).waitFor();
    await page.getByRole('columnheader', { name: FRAME }).waitFor();
    const goodRow = tableRows(page).filter({ hasText: `Morgan Eight ${RUN}` });
    await expect.poll(() => goodRow.textContent()).toContain('Wood');

    // Filters on two fields at once: each narrows the list, both must hold, and the URL keeps both.
    const names = async () =>
      (await tableRows(page).allTextContents()).map((t) => /Morgan Eight|Riley Two/.exec(t)?.[0]);
    await choose(page, page.getByRole('combobox', { name: 'Filter on field', exact: true }), LABEL);
    await page.getByRole('textbox', { name: 'Field value', exact: true }).fill('8');
    await expect.poll(names).toEqual(['Morgan Eight']);
    await page.getByRole('button', { name: 'Add a field filter' }).click();
    await choose(page, page.getByRole('combobox', { name: 'Filter on field 2' }), FRAME);
    await page.getByRole('textbox', { name: 'Field value 2' }).fill('vinyl');
    await expect.poll(() => tableRows(page).count()).toBe(0);
    expect(new URL(page.url()).searchParams.getAll('field')).toEqual([`${KEY}:8`, `${FRAME_KEY}:vinyl`]);
    await page.getByRole('textbox', { name: 'Field value 2' }).fill('wood');
    await expect.poll(names).toEqual(['Morgan Eight']);
    await fullPageScreenshot(page, 'service-fields-leads-list');
    // The first filter removed, the second alone: vinyl is the other lead.
    await page.getByRole('textbox', { name: 'Field value 2' }).fill('vinyl');
    await page.getByRole('button', { name: 'Remove field filter 1' }).click();
    await expect.poll(names).toEqual(['Riley Two']);
    await expect.poll(() => new URL(page.url()).searchParams.getAll('field')).toEqual([`${FRAME_KEY}:vinyl`]);

    // The CSV: the fields after the 18 columns, filtered on both.
    const res = await page.request.get('/api/lead/date/today/export.csv?service=windows');
    expect(res.status()).toBe(200);
    const lines = (await res.text()).trim().split('\n');
    const header = lines[0]?.split(',') ?? [];
    const at = header.indexOf(LABEL);
    expect(at).toBeGreaterThanOrEqual(18);
    expect(header.indexOf(FRAME)).toBe(at + 1);
    const row = lines.find((l) => l.includes(`Morgan Eight ${RUN}`))?.split(',') ?? [];
    expect(row.slice(at, at + 2)).toEqual(['8', 'Wood']);
    const poorRow = lines.find((l) => l.includes(`Riley Two ${RUN}`))?.split(',') ?? [];
    expect(poorRow.slice(at, at + 2)).toEqual(['2', 'Vinyl']);
    const both = await page.request.get(
      `/api/lead/date/today/export.csv?service=windows&field=${KEY}:8&field=${FRAME_KEY}:wood`,
    );
    const bothLines = (await both.text()).trim().split('\n');
    expect(bothLines).toHaveLength(2);
    expect(bothLines[1]).toContain(`Morgan Eight ${RUN}`);

    // The delivery template offers the fields with a sample; a ping may send the ping-stage one only.
    const template = await apiCall<{ fields: { field: string; sample: string }[]; ping_fields: string[] }>(
      page.request,
      'get',
      '/api/webhook/new',
    );
    expect(template.fields).toContainEqual({ field: `fields.${KEY}`, sample: '3' });
    expect(template.fields).toContainEqual({ field: `fields.${FRAME_KEY}`, sample: 'Vinyl' });
    expect(template.ping_fields).toContain(`fields.${KEY}`);
    expect(template.ping_fields).not.toContain(`fields.${FRAME_KEY}`);
    await context.close();
  }, 180_000);
});
