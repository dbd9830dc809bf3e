import { describe, expect, inject, it } from 'vitest';
import { useBrowser } from './browser';
import { chooseAndWait, expectErrorToast, fieldError, section, tableRows, toast } from './screen';
import { fullPageScreenshot, screenshot } from './screenshots';
import { apiCall, USERS, unique } from './support';

/**
 * Admin §2 Settings, DESIGN.md §11 Integrations: the admin connects Google Ads through the provider (a
 * local OAuth 2 server, global-setup.ts) and back, sees Facebook Ads wanting its configuration, records
 * an internal source's ad spend by hand and from a CSV file, and disconnects Google Ads.
 */
const e2e = useBrowser();

/** A day `daysAgo` before today, as the API (YYYY-MM-DD) and the screens (MM/DD/YYYY) write it. */
function dayBefore(daysAgo: number) {
  const date = new Date();
  date.setDate(date.getDate() - daysAgo);
  const [yyyy, mm, dd] = [
    String(date.getFullYear()),
    String(date.getMonth() + 1).padStart(2, '0'),
    String(date.getDate()).padStart(2, '0'),
  ];
  return { iso: `${yyyy}-${mm}-${dd}`, shown: `${mm}/${dd}/${yyyy}` };
}

describe('the integrations and ad spend on Settings', () => {
  it('connects Google Ads round the provider, records ad spend, and disconnects', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    // An internal source: one with no lead cost (its cost is ad spend).
    const sourceName = `Search Inbound ${unique()}`;
    const { _id: sourceId } = await apiCall<{ _id: string }>(page.request, 'post', '/api/source', {
      name: sourceName,
      email: `ads-${unique()}@inbound.example`,
      phone: '6025550112',
      channels: [],
    });

    await page.goto('/settings');
    const facebook = page.getByRole('article', { name: 'Facebook Ads' });
    const google = page.getByRole('article', { name: 'Google Ads' });
    const gmail = page.getByRole('article', { name: 'Gmail' });
    // Facebook has no client id or secret on this exchange: no Connect, but what to set.
    await facebook.getByText('Not configured', { exact: false }).waitFor();
    expect(await facebook.textContent()).toContain('FACEBOOK_OAUTH_CLIENT_ID');
    expect(await facebook.getByRole('link', { name: 'Connect' }).count()).toBe(0);
    expect(await facebook.getByText('Disconnected', { exact: true }).count()).toBe(1);
    await gmail.getByRole('link', { name: 'Connect' }).waitFor();
    await google.getByText('Disconnected', { exact: true }).waitFor();
    await fullPageScreenshot(page, 'integrations-disconnected');

    // Connect: the browser goes to the provider's /authorize, back to the exchange's callback, and
    // lands on /settings saying so; the result's parameters leave the URL.
    const navigations: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations.push(request.url());
    });
    await google.getByRole('link', { name: 'Connect' }).click();
    await toast(page, 'Google Ads connected.').waitFor();
    await google.getByText('Connected', { exact: true }).waitFor();
    await expect.poll(() => page.url()).not.toContain('connected=');
    expect(new URL(page.url()).pathname).toBe('/settings');
    const issuer = inject('oauthIssuer');
    expect(navigations.some((url) => url.startsWith(`${issuer}/authorize`))).toBe(true);
    expect(navigations.some((url) => new URL(url).searchParams.get('connected') === 'google-ads')).toBe(true);
    await google.getByRole('link', { name: 'Reconnect' }).waitFor();
    expect(await google.textContent()).toContain('Access expires');

    // Its spend is the internal source's cost.
    await chooseAndWait(page, google.getByRole('combobox', { name: 'Internal source' }), sourceName);
    await toast(page, `Google Ads spend is now the cost of ${sourceName}.`).waitFor();
    await expect
      .poll(async () => {
        const list = await apiCall<{ name: string; sourceId: string | null }[]>(
          page.request,
          'get',
          '/api/setting/allForCat/integration',
        );
        return list.find((i) => i.name === 'google-ads')?.sourceId;
      })
      .toBe(sourceId);
    await fullPageScreenshot(page, 'integrations-google-connected');

    // A day's spend by hand: the shared schema's messages first, then the entry in the table.
    const spend = section(page, 'Ad spend');
    const entry = page.getByRole('form', { name: 'Ad spend entry' });
    const sourceSelect = entry.getByRole('combobox', { name: 'Internal source' });
    const amount = entry.getByRole('textbox', { name: 'Amount' });
    await entry.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await fieldError(sourceSelect)).message).toBe('Source is required');
    expect((await fieldError(amount)).message).toBe('Amount is required');

    const yesterday = dayBefore(1);
    await chooseAndWait(page, sourceSelect, sourceName);
    await entry.getByRole('textbox', { name: 'Date' }).fill(yesterday.shown);
    await amount.fill('123.45');
    await entry.getByRole('button', { name: 'Save' }).click();
    await toast(page, `Recorded $123.45 of ad spend for ${sourceName} on ${yesterday.shown}.`).waitFor();
    const rowOf = (day: string) => tableRows(spend).filter({ hasText: sourceName }).filter({ hasText: day });
    await rowOf(yesterday.shown).filter({ hasText: 'Manual' }).filter({ hasText: '$123.45' }).waitFor();

    // Two more days from a CSV file, the source named.
    const [earlier, earliest] = [dayBefore(2), dayBefore(3)];
    const chooser = page.waitForEvent('filechooser');
    await spend.getByRole('button', { name: 'Upload CSV' }).click();
    await (await chooser).setFiles({
      name: 'ad-spend.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `date,source,amount\n${earlier.iso},${sourceName},80\n${earliest.iso},${sourceName},1250.5\n`,
      ),
    });
    await toast(page, 'Recorded 2 days of ad spend.').waitFor();
    await rowOf(earlier.shown).filter({ hasText: '$80.00' }).waitFor();
    await rowOf(earliest.shown).filter({ hasText: '$1,250.50' }).waitFor();
    await fullPageScreenshot(page, 'integrations-ad-spend');

    // Disconnect asks first, then the card reads Disconnected with Connect again.
    await google.getByRole('button', { name: 'Disconnect' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disconnect Google Ads' });
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await toast(page, 'Google Ads disconnected.').waitFor();
    await google.getByText('Disconnected', { exact: true }).waitFor();
    await google.getByRole('link', { name: 'Connect' }).waitFor();
    await fullPageScreenshot(page, 'integrations-google-disconnected');

    // A provider that refuses comes back to the callback with an error: the server's sentence is a red
    // toast, the URL is cleaned, and Google Ads stays Disconnected.
    navigations.length = 0;
    await page.goto('/api/google/ads-auth/callback?error=access_denied&state=refused');
    const landed = navigations.map((url) => new URL(url)).find((url) => url.searchParams.has('integrationError'));
    expect(landed?.pathname).toBe('/settings');
    expect(landed?.searchParams.get('integration')).toBe('google-ads');
    await expectErrorToast(page, landed?.searchParams.get('integrationError') ?? '');
    await expect.poll(() => page.url()).not.toContain('integrationError=');
    await google.getByText('Disconnected', { exact: true }).waitFor();
    await screenshot(page, 'integrations-refused');
    await context.close();
  });
});
