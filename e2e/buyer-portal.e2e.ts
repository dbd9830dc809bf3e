import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { fieldError, section, tableRows } from './screen';
import { fullPageScreenshot } from './screenshots';
import { apiCall, DEMO_BUYER_NAME, expectPath, navigation, USERS, unique } from './support';

/**
 * Issue 15, the buyer portal: the demo buyer's home shows Payment Information, Message Us and Stats; a
 * message it sends is on the admin's Messages screen; its profile is its own record, read-only.
 */
const e2e = useBrowser();

interface BuyerStats {
  month: { leads: number; spend: number; returns: number };
  days: { day: string; leads: number; spend: number }[];
}

const money = (dollars: number) => dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD' });

describe('the buyer portal', () => {
  it("shows the buyer's home, sends Message Us to the admins' Messages, and shows the read-only profile", async () => {
    const buyer = await e2e.signedIn(USERS.buyer);
    const { page } = buyer;
    const { role_id: buyerId } = await apiCall<{ role_id: string }>(page.request, 'get', '/api/session');

    // Home: Payment Information, Message Us and Stats, the month's figures as the API counts them.
    await page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();
    await section(page, 'Payment Information').waitFor();
    const stats = section(page, 'Stats');
    await stats.getByText('Leads this month').waitFor();
    const figures = await apiCall<BuyerStats>(page.request, 'get', `/api/buyer/${buyerId}/stats`);
    expect(figures.days).toHaveLength(30);
    await expect.poll(() => stats.textContent()).toContain(`Leads this month${figures.month.leads.toLocaleString()}`);
    await expect.poll(() => stats.textContent()).toContain(`Spend this month${money(figures.month.spend)}`);
    await expect.poll(() => stats.textContent()).toContain(`Returns this month${figures.month.returns}`);
    await stats.getByText('Last 30 Days').waitFor();
    await stats.locator('.recharts-surface').first().waitFor();
    await fullPageScreenshot(page, 'buyer-home');

    // Message Us: an empty message is refused by the form, with the spec's text.
    const messageUs = section(page, 'Message Us');
    const box = messageUs.getByRole('textbox', { name: 'Message' });
    await messageUs.getByRole('button', { name: 'Send Message' }).click();
    await expect.poll(async () => (await fieldError(box)).message).toContain('Message is required');
    expect((await fieldError(box)).invalid).toBe(true);

    const text = `Please call us about solar leads in Austin (${unique()}).`;
    await box.fill(text);
    await messageUs.getByRole('button', { name: 'Send Message' }).click();
    await messageUs.getByText('Thank you for reaching out. We will get in touch with you shortly.').waitFor();
    await fullPageScreenshot(page, 'buyer-home-message-sent');

    // The admin's Messages list shows it, naming the buyer, with a link to the buyer's screen.
    const admin = await e2e.signedIn(USERS.admin);
    await admin.page.goto('/messages');
    const row = tableRows(admin.page).filter({ hasText: text });
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain(`Message from ${DEMO_BUYER_NAME}`);
    await fullPageScreenshot(admin.page, 'buyer-message-admin-messages');
    await row.getByRole('link', { name: 'Open' }).click();
    await expectPath(admin.page, `/buyer/${buyerId}`);
    await admin.page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();
    await admin.context.close();

    // Profile: the buyer's own record, read-only: lead delivery, payment cards, users and who changes them.
    await navigation(page).getByRole('link', { name: 'Profile' }).click();
    await expectPath(page, '/buyer');
    await page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();
    await section(page, 'Lead Delivery').waitFor();
    await section(page, 'Payment Cards').waitFor();
    await section(page, 'Users').getByText('To add, remove or change users, contact your provider.').waitFor();
    await tableRows(section(page, 'Users')).first().waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await fullPageScreenshot(page, 'buyer-profile');
    await buyer.context.close();
  });
});
