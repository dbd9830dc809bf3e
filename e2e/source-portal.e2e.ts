import type { APIRequestContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { section, tableRows } from './screen';
import { fullPageScreenshot } from './screenshots';
import { addUserWithPassword, apiCall, expectPath, navigation, signIn, USERS, unique } from './support';

const e2e = useBrowser();

interface Created {
  sourceId: string;
  name: string;
  email: string;
  password: string;
  apiKey: string;
}

/**
 * A new source made by the admin with one key and one user, whose password is set through the link of
 * its welcome email (read from the outbox): the user starts on the welcome page, as a new source does.
 */
async function newSourceUser(admin: APIRequestContext, canPostLead: boolean): Promise<Created> {
  const suffix = unique();
  const name = `Canyon Leads ${suffix}`;
  const source = await apiCall<{ _id: string }>(admin, 'post', '/api/source', {
    name,
    email: `ops-${suffix}@canyon.example`,
    phone: '6025550143',
    address: '100 Main St',
    city: 'Phoenix',
    state: 'AZ',
    zip: '85004',
    canPostLead,
    channels: [{ name: 'facebook', max_cost: 9 }],
  });
  const key = await apiCall<{ key: string }>(admin, 'put', `/api/source/${source._id}/apikey/new`, {
    name: 'Production',
  });
  const email = `dana-${suffix}@canyon.example`;
  const password = 'canyon-pass-1';
  await addUserWithPassword(admin, { kind: 'source', id: source._id }, { name: 'Dana Ruiz', email, password });
  return { sourceId: source._id, name, email, password, apiKey: key.key };
}

/** The raw answer the welcome page shows for its test ping. */
const pingAnswer = (page: Page) => page.getByRole('region', { name: 'Test ping response' });

describe('a new source’s portal', () => {
  it('welcome page: copies the key, sends the test ping, closes with the confirmation, then its details and /doc', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const created = await newSourceUser(admin.page.request, true);
    await admin.context.close();

    const { context, page } = await e2e.newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.baseURL });
    await signIn(page, created.email, created.password);
    await page.setViewportSize({ width: 1440, height: 900 });

    // The welcome page: the first key, the endpoints (direct lead too: this source may post direct).
    await expectPath(page, '/source');
    await page.getByRole('heading', { name: 'Welcome to the Lead Delivery System!' }).waitFor();
    await page.getByText(created.apiKey, { exact: true }).waitFor();
    for (const path of ['/api/ping', '/api/post', '/api/lead'])
      await section(page, 'Endpoints').getByText(`${e2e.baseURL}${path}`, { exact: true }).waitFor();

    // Copy API Key: the clipboard holds the key, the button says Copied, then goes back after 500 ms.
    await page.getByRole('button', { name: 'Copy API Key' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(created.apiKey);
    await page.getByRole('button', { name: 'Copy API Key' }).waitFor({ timeout: 2000 });

    // Test Your First Ping: the first service preselected, ZIP 99999, test on; the answer shown raw.
    const card = section(page, 'Test Your First Ping');
    const services = (await (await page.request.get('/api/services')).json()) as string[];
    const service = card.getByRole('combobox', { name: 'Service' });
    // Shown by its label (issue 27 item 12); the ping and the cURL carry its key.
    const labels = (await (await page.request.get('/api/services/labels')).json()) as { name: string; label: string }[];
    await expect.poll(() => service.inputValue()).toBe(labels.find((s) => s.name === services[0])?.label);
    expect(await card.getByRole('textbox', { name: 'Zip' }).inputValue()).toBe('99999');
    expect(await card.getByRole('switch', { name: 'Test' }).isChecked()).toBe(true);
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/ping'));
    await card.getByRole('button', { name: 'Send Test Ping' }).click();
    expect((await sent).postDataJSON()).toEqual({
      apikey: created.apiKey,
      service: services[0],
      zip: '99999',
      test: true,
    });
    await pingAnswer(page).getByText('HTTP 200').waitFor();
    const raw = (await pingAnswer(page).locator('pre').textContent()) ?? '';
    expect(JSON.parse(raw)).toHaveProperty('ok');

    // The cURL example carries the key and the chosen service; its button copies it.
    const curl = section(page, 'cURL example');
    const example = (await curl.locator('pre').textContent()) ?? '';
    expect(example).toContain(`Authorization: Bearer ${created.apiKey}`);
    expect(example).toContain(`"service":"${services[0]}"`);
    await curl.getByRole('button', { name: 'Copy cURL' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(example);
    await fullPageScreenshot(page, 'source-welcome');
    await page.setViewportSize({ width: 1440, height: 900 });

    // I got this!: Cancel keeps the page; Confirm closes it (PUT /api/session/claims { welcome: false }).
    await page.getByRole('button', { name: 'I got this!' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Are you sure you want to close the welcome page?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Welcome to the Lead Delivery System!' }).waitFor();

    await page.getByRole('button', { name: 'I got this!' }).click();
    const closing = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/api/session/claims'));
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    expect((await closing).postDataJSON()).toEqual({ welcome: false });

    // The details page: status, fields, keys, channels and users.
    await page.getByRole('heading', { name: 'Source details' }).waitFor();
    await expectPath(page, '/source');
    await page.getByText('Active', { exact: true }).first().waitFor();
    await page.getByText(created.sourceId, { exact: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe(created.name);
    expect(await page.getByRole('textbox', { name: 'City' }).inputValue()).toBe('Phoenix');
    expect(await page.getByRole('textbox', { name: 'Can Post Direct' }).inputValue()).toBe('Yes');
    const keyRow = tableRows(section(page, 'API Keys')).filter({ hasText: 'Production' });
    await keyRow.getByText('Active', { exact: true }).waitFor();
    await keyRow.getByText(created.apiKey, { exact: true }).waitFor();
    await keyRow.getByRole('button', { name: 'Copy API key' }).click();
    await keyRow.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(created.apiKey);
    await section(page, 'Channels').getByText('facebook').waitFor();
    await tableRows(section(page, 'Users')).filter({ hasText: created.email }).waitFor();
    await fullPageScreenshot(page, 'source-details');
    await page.setViewportSize({ width: 1440, height: 900 });

    // Closed for good: a reload stays on the details.
    await page.reload();
    await page.getByRole('heading', { name: 'Source details' }).waitFor();
    expect(await page.getByText('Welcome to the Lead Delivery System!').count()).toBe(0);

    // /doc: this source's endpoints and key, and the services.
    await navigation(page).getByRole('link', { name: 'API Doc' }).click();
    await expectPath(page, '/doc');
    const own = page.getByRole('table', { name: 'Your endpoints' });
    for (const path of ['/api/ping', '/api/post', '/api/lead'])
      await own.getByText(`${e2e.baseURL}${path}`, { exact: true }).waitFor();
    await own.getByText(created.apiKey, { exact: true }).waitFor();
    await page
      .getByRole('list', { name: 'Services' })
      .getByText(services[0] as string, { exact: true })
      .waitFor();
    await fullPageScreenshot(page, 'source-doc');
    await context.close();
  });

  it('hides the direct lead endpoint from a source not approved to post direct', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const created = await newSourceUser(admin.page.request, false);

    const { context, page } = await e2e.newPage();
    await signIn(page, created.email, created.password);
    await page.getByRole('heading', { name: 'Welcome to the Lead Delivery System!' }).waitFor();
    const endpoints = section(page, 'Endpoints');
    await endpoints.getByText(`${e2e.baseURL}/api/post`, { exact: true }).waitFor();
    expect(await endpoints.getByText(`${e2e.baseURL}/api/lead`).count()).toBe(0);

    // The Profile entry shows the details while the welcome page is still up.
    await navigation(page).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Source details' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Can Post Direct' }).inputValue()).toBe('No');

    await navigation(page).getByRole('link', { name: 'API Doc' }).click();
    const own = page.getByRole('table', { name: 'Your endpoints' });
    await own.getByText(`${e2e.baseURL}/api/ping`, { exact: true }).waitFor();
    expect(await own.getByText(`${e2e.baseURL}/api/lead`).count()).toBe(0);
    // Ping and post are documented; the direct lead call is not, for this source.
    await page.getByRole('heading', { name: /\/api\/post/ }).waitFor();
    expect(await page.getByRole('heading', { name: /\/api\/lead/ }).count()).toBe(0);

    // The admin holds the first key (a second one is made) and the source: keys on hold sort last,
    // and the status block says since when the source is on hold.
    const adminApi = admin.page.request;
    await apiCall(adminApi, 'put', `/api/source/${created.sourceId}/apikey/new`, { name: 'Backup' });
    await apiCall(adminApi, 'put', `/api/source/${created.sourceId}/apikey/hold`, { name: 'Production' });
    await apiCall(adminApi, 'put', `/api/source/${created.sourceId}/hold`, { reason: 'Quality review' });
    await admin.context.close();
    await page.goto('/source?tab=profile');
    await page.getByText(/^On hold as of \d\d\/\d\d\/\d{4}$/).waitFor();
    expect(await page.getByText('Quality review').count()).toBe(0);
    const rows = tableRows(section(page, 'API Keys'));
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain('Backup');
    expect(await rows.nth(1).textContent()).toMatch(/Production.*On hold/);
    await fullPageScreenshot(page, 'source-details-on-hold');
    await context.close();
  });
});
