import { platformFieldNames } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { screenshot } from './screenshots';
import { expectPath, navigation, USERS } from './support';

const e2e = useBrowser();

describe('API documentation', () => {
  it('shows a guest the source API at /doc/api, rendered from its OpenAPI document', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/doc/api');
    await page.getByRole('heading', { name: 'API Documentation' }).waitFor();
    for (const path of ['/api/ping', '/api/post', '/api/lead'])
      await page.getByText(path, { exact: true }).first().waitFor();
    // The field table comes from /api/openapi/public.json, the reason codes from the page.
    await page.getByText('One of the exchange’s services', { exact: false }).first().waitFor();
    await page.getByText('no_match', { exact: true }).first().waitFor();
    expect(page.url()).toMatch(/\/doc\/api$/);
    await context.close();
  });

  it("lists the exchange's services from the document's x-services, with a loading state before", async () => {
    const { context, page } = await e2e.newPage();
    const document = await page.request.get('/api/openapi/public.json');
    expect(document.status()).toBe(200);
    const services = ((await document.json()) as { 'x-services': string[] })['x-services'];
    expect(services.length).toBeGreaterThan(0);

    // The page asks for the document when it opens: hold the answer until the loading state is seen.
    let release: () => void = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    await page.route('**/api/openapi/public.json', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/doc/api');
    const section = page
      .locator('.mantine-Paper-root')
      .filter({ has: page.getByRole('heading', { name: 'Services', exact: true }) });
    await section.getByRole('status', { name: 'Loading services' }).waitFor();
    await section.getByText('Loading...', { exact: true }).waitFor();
    release();

    const list = section.getByRole('list', { name: 'Services' });
    await list.waitFor();
    expect((await list.getByRole('listitem').allInnerTexts()).map((text) => text.trim())).toEqual(services);
    expect(await section.getByRole('status', { name: 'Loading services' }).count()).toBe(0);
    // The service field no longer ends its list of services with an ellipsis.
    const serviceRow = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'service', exact: true }) });
    expect(await serviceRow.first().textContent()).not.toContain('…');
    await screenshot(page, 'doc-api-guest', { fullPage: true });
    await context.close();
  });

  it('gives a guest the header with the logo and a Sign in link back to /auth', async () => {
    const { context, page } = await e2e.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/doc/api');
    await page.getByRole('heading', { name: 'API Documentation' }).waitFor();
    const header = page.getByRole('banner');
    await header.getByText('Leadex', { exact: true }).waitFor();
    const signInLink = header.getByRole('link', { name: 'Sign in' });
    expect(await signInLink.getAttribute('href')).toBe('/auth');
    await screenshot(page, 'doc-api-guest-phone');
    await signInLink.click();
    await expectPath(page, '/auth');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await context.close();
  });

  it('is a source’s API Doc page at /doc', async () => {
    const { context, page } = await e2e.signedIn(USERS.source);
    await navigation(page).getByText('API Doc', { exact: true }).click();
    await page.getByRole('heading', { name: 'API Documentation' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/doc');
    await page.getByText('/api/ping', { exact: true }).first().waitFor();

    // Issue 32 item 10: a guide per platform, with what each of its fields becomes, and examples to paste.
    for (const platform of ['LeadConduit', 'LeadsPedia', 'boberdoo', 'Lead Prosper'] as const) {
      await page.getByRole('heading', { name: `Connect from ${platform}` }).waitFor();
      const rows = page.getByRole('table', { name: `${platform} fields` }).getByRole('row');
      // A header row, then a row per field name the server reads.
      await expect.poll(() => rows.count()).toBe(platformFieldNames(platform).length + 1);
    }
    const postalCode = page
      .getByRole('table', { name: 'LeadConduit fields' })
      .getByRole('row', { name: /postal_code/ });
    expect((await postalCode.getByRole('cell').allTextContents()).map((t) => t.trim())).toEqual(['postal_code', 'zip']);
    // The LeadConduit URL carries the source's own key: pasted as it is, it posts as this source.
    const standard = page.getByText(/\/api\/lead\?apikey=lx_[^&]+&response_format=leadconduit/).first();
    await standard.waitFor();
    expect(await standard.textContent()).not.toContain('lx_yourkey');
    await context.close();
  });
});
