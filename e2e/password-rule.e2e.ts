import { SIGNUP_MESSAGES } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { toast } from './screen';
import { addUserWithPassword, apiCall, navigation, submitSignIn, USERS, unique } from './support';

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

/**
 * Issue 29 item 2: failed sign-ins slow the (account, address) pair down, with the wait in words on the
 * sign-in screen, instead of locking the account; once the wait is over the right password signs in.
 */
describe('a user who mistypes the password again and again', () => {
  it('is told how long to wait, then signs in with the right password', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const suffix = unique();
    const source = await apiCall<{ _id: string }>(admin.page.request, 'post', '/api/source', {
      name: `Dune Leads ${suffix}`,
      email: `ops-${suffix}@dune.example`,
      phone: '6025550177',
      address: '9 Palm Rd',
      city: 'Yuma',
      state: 'AZ',
      zip: '85364',
      channels: [{ name: 'facebook', max_cost: 9 }],
    });
    const email = `lee-${suffix}@dune.example`;
    const password = `dune-lee-${suffix}-4`;
    await addUserWithPassword(
      admin.page.request,
      { kind: 'source', id: source._id },
      { name: 'Lee Park', email, password },
    );
    await admin.context.close();

    const { context, page } = await e2e.newPage();
    const failure = page.getByRole('alert');
    // The first failures answer at once; past them each further one waits longer (1 s, 2 s, 4 s, …), so
    // some attempt soon lands inside its wait, however slowly this machine types.
    let slowed = '';
    for (let attempt = 1; attempt <= 12 && !slowed; attempt++) {
      await submitSignIn(page, email, 'not-the-password-1');
      await failure.waitFor();
      const text = (await failure.textContent()) ?? '';
      if (/Too many failed sign-in attempts from here\. Try again in \d+ seconds?/.test(text)) slowed = text;
      else expect(text).toContain('Incorrect email and password combination');
    }
    expect(slowed).not.toBe('');

    // After the wait the right password signs in: the account was never locked.
    const seconds = Number(/Try again in (\d+) second/.exec(slowed)?.[1]);
    await expect
      .poll(
        async () => {
          await submitSignIn(page, email, password);
          await Promise.race([navigation(page).waitFor(), failure.waitFor()]);
          return navigation(page).isVisible();
        },
        { timeout: (seconds + 20) * 1000, interval: 1000 },
      )
      .toBe(true);
    await context.close();
  });
});
