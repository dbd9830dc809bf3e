import { describe, expect, it } from 'vitest';
import { waitForSettled } from './accessibility';
import { useBrowser } from './browser';
import { section, tableRows } from './screen';
import { fullPageScreenshot } from './screenshots';
import { apexKey, apiCall, USERS } from './support';

/** Issue 14, admin spec §2 Home dashboard: this month's figures, the lead queue and the Buyer Gaps. */
const e2e = useBrowser();

interface Stats {
  totalQuota: number;
  totalQuotaValue: number;
  totalLeads: number;
  leadRevenue: number;
  leadCost: number;
  topUnmatchedPings: { _id: { zip: string; service: string }; count: number }[];
}

const money = (dollars: number) =>
  dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

describe('the admin dashboard', () => {
  it('shows the revenue target, revenue, cost, profit, the lead queue and the Buyer Gaps of the month', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    // A ping nobody buys (no campaign buys pest control in Alaska): a gap of this month, whatever the date.
    const key = await apexKey(page.request, `Dashboard e2e ${Date.now()}`);
    const ping = await page.request.post('/api/ping', {
      headers: { authorization: `Bearer ${key}` },
      data: { service: 'pest_control', zip: '99501' },
    });
    expect(await ping.json()).toMatchObject({ ok: false, reason: 'no_match' });
    // The engine records unmatched pings in batches: wait for this one.
    let stats = await apiCall<Stats>(page.request, 'get', '/api/stats/');
    await expect
      .poll(
        async () => {
          stats = await apiCall<Stats>(page.request, 'get', '/api/stats/');
          return stats.topUnmatchedPings.some((g) => g._id.zip === '99501' && g._id.service === 'pest_control');
        },
        { timeout: 15_000 },
      )
      .toBe(true);

    await page.goto('/');
    await page.getByRole('heading', { name: 'Admin dashboard' }).waitFor();
    const figure = (label: string) => page.getByRole('group', { name: label, exact: true });
    await expect.poll(() => figure('Revenue target').textContent()).toContain(money(stats.totalQuotaValue));
    expect(await figure('Revenue').textContent()).toContain(money(stats.leadRevenue));
    expect(await figure('Cost').textContent()).toContain(money(stats.leadCost));
    const profit = Math.round((stats.leadRevenue - stats.leadCost) * 100) / 100;
    expect(await figure('Profit').textContent()).toContain(money(profit));

    const queue = section(page, 'Lead queue');
    await queue
      .getByText(`${stats.totalLeads.toLocaleString('en-US')} of ${stats.totalQuota.toLocaleString('en-US')} leads`)
      .waitFor();
    const bar = queue.getByRole('progressbar', { name: 'Lead queue' });
    const expected = stats.totalQuota > 0 ? Math.min(100, (stats.totalLeads / stats.totalQuota) * 100) : 0;
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeCloseTo(expected, 5);

    // Each gap is a row, most missed first.
    const gaps = tableRows(section(page, 'Buyer Gaps'));
    await expect.poll(() => gaps.count()).toBe(stats.topUnmatchedPings.length);
    const first = stats.topUnmatchedPings[0];
    // The service by its label (issue 27 item 12).
    const labels = await apiCall<{ name: string; label: string }[]>(page.request, 'get', '/api/services/labels');
    const label = labels.find((s) => s.name === first?._id.service)?.label;
    expect(await gaps.first().textContent()).toBe(`${first?._id.zip}${label}${first?.count}`);
    await fullPageScreenshot(page, 'dashboard-admin');
    await context.close();
  });

  it('reports this month by day, and each source and buyer over the chosen range, with a CSV of each', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/?dateq=mtd');
    await section(page, 'This Month by Day').locator('.recharts-surface').first().waitFor();
    const stats = await apiCall<Stats>(page.request, 'get', '/api/stats/');
    const sources = await apiCall<{ name: string; revenue: number }[]>(
      page.request,
      'get',
      '/api/stats/sources?dateq=mtd',
    );
    // The sources' revenue adds up to the month's, and each is a row of the table.
    const total = sources.reduce((sum, r) => sum + Math.round(r.revenue * 100), 0);
    expect(total).toBe(Math.round(stats.leadRevenue * 100));
    const rows = tableRows(section(page, 'Sources'));
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(sources.length);
    await rows
      .filter({ hasText: sources[0]?.name ?? '' })
      .getByText(money(sources[0]?.revenue ?? 0))
      .waitFor();

    // The range is the leads lists': Today keeps it in the URL too.
    await page.getByText('Today', { exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('dateq')).toBeNull();

    // This Month again, and its CSV, once Today's figures have rendered: a click while React is still
    // replacing the screen can land on a control that is gone (seen on a busy CI machine).
    await waitForSettled(page);
    await page.getByText('This Month', { exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('dateq')).toBe('mtd');
    // The button is a link once the month's rows have loaded (a disabled button before).
    const exportLink = section(page, 'Buyers').getByRole('link', { name: 'Export to CSV' });
    await exportLink.waitFor();
    const downloading = page.waitForEvent('download');
    await exportLink.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^buyers_\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString());
    expect(text.split('\n')[0]).toBe('Buyer,Leads,Average price,Returns,Return rate %,Revenue,Cost,Profit');
    await fullPageScreenshot(page, 'dashboard-reports');
    await context.close();
  });
});
