import { SIGNUP_MESSAGES } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { toast } from './screen';
import { apiCall, USERS, unique } from './support';

const e2e = useBrowser();

/**
 * Issue 29 item 3: every way of setting a password refuses a commonly breached one, the welcome link's
 * screen too (the sign-up form alone applied the rule before). The server decides; the screen shows its
 * message where the form's own checks (length, a letter and a digit) pass.
 */
describe('a new user sets a first password through the welcome link', () => {
  it('is told a breached password is refused, and a sound one is set', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const suffix = unique();
    const source = await apiCall<{ _id: string }>(admin.page.request, 'post', '/api/source', {
      name: `Mesa Leads ${suffix}`,
      email: `ops-${suffix}@mesa.example`,
      phone: '6025550188',
      address: '12 Mill Ave',
      city: 'Tempe',
      state: 'AZ',
      zip: '85281',
      channels: [{ name: 'facebook', max_cost: 9 }],
    });
    const email = `rosa-${suffix}@mesa.example`;
    const base = `/api/source/${source._id}`;
    const user = await apiCall<{ _id: string }>(admin.page.request, 'post', `${base}/user`, {
      name: 'Rosa Vega',
      email,
    });
    await apiCall(admin.page.request, 'put', `${base}/welcome/${user._id}`);
    const outbox = await apiCall<{ data: { to: string; text: string }[] }>(
      admin.page.request,
      'get',
      '/api/outbox?pageSize=50',
    );
    const text = outbox.data.find((m) => m.to.includes(email))?.text ?? '';
    const link = /https?:\/\/\S+\/reset-password\?\S+/.exec(text)?.[0];
    expect(link, 'the welcome email carries a set-password link').toBeDefined();
    await admin.context.close();

    const { context, page } = await e2e.newPage();
    const url = new URL(link as string);
    await page.goto(`${url.pathname}${url.search}`);
    await page.getByRole('heading', { name: 'Set your password' }).waitFor();
    const setPassword = async (password: string) => {
      await page.getByLabel(/^New password/).fill(password);
      await page.getByLabel(/^Confirm password/).fill(password);
      await page.getByRole('button', { name: 'Set password' }).click();
    };

    // 'password1' passes the form's own rule (8 characters, a letter and a digit) but is among the most
    // breached passwords: the server refuses it and the screen says why; the link still works after.
    await setPassword('password1');
    await page.getByText(SIGNUP_MESSAGES.passwordCommon, { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/reset-password');

    await setPassword(`mesa-rosa-${suffix}-7`);
    await toast(page, 'Your password is set. Sign in to continue.').waitFor();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/auth');
    await context.close();
  });
});
