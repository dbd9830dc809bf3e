import { describe, expect, it } from 'vitest';
import { waitForSettled } from './accessibility';
import { useBrowser } from './browser';
import { DEMO_BUYER_NAME, expectPath, MENUS, menuTexts, navigation, signIn, submitSignIn, USERS } from './support';

const e2e = useBrowser();

/** What the header's role badge reads for each role. */
const ROLE_LABELS = { admin: 'Admin', buyer: 'Buyer', source: 'Source' } as const;

/** Issue 3, Must show: each role signs in at /auth and sees exactly its menu; /logout ends the session. */
describe('sign-in at /auth', () => {
  it('signs the admin in by username and shows exactly the admin menu, in the spec order', async () => {
    const { context, page } = await e2e.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));

    await signIn(page, USERS.admin.username, USERS.admin.password);

    await expectPath(page, '/');
    await expect.poll(() => menuTexts(page)).toEqual(MENUS.admin);
    await page.getByRole('heading', { name: 'Admin dashboard' }).waitFor();
    expect(await page.getByTestId('user-role').textContent()).toBe('Admin');
    // The Home entry is the current page.
    expect(await navigation(page).getByRole('link', { name: 'Home' }).getAttribute('data-active')).toBe('true');
    expect(errors).toEqual([]);
    await context.close();
  });

  // The other roles and sign-in names: each lands on its home and sees exactly its menu, in the spec order.
  it.each([
    { who: 'the buyer by email', login: USERS.buyer.email, password: USERS.buyer.password, home: '/', role: 'buyer' },
    {
      who: 'the buyer by username',
      login: USERS.buyer.username,
      password: USERS.buyer.password,
      home: '/',
      role: 'buyer',
    },
    {
      who: 'the source by username',
      login: USERS.source.username,
      password: USERS.source.password,
      home: '/source',
      role: 'source',
    },
    { who: 'the admin by email', login: USERS.admin.email, password: USERS.admin.password, home: '/', role: 'admin' },
  ] as const)('signs $who in and shows exactly the $role menu', async ({ login, password, home, role }) => {
    const { context, page } = await e2e.newPage();

    await signIn(page, login, password);

    await expectPath(page, home);
    await expect.poll(() => menuTexts(page)).toEqual(MENUS[role]);
    expect(await page.getByTestId('user-role').textContent()).toBe(ROLE_LABELS[role]);
    if (role === 'buyer') await page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();
    await context.close();
  });

  it('says "Incorrect email and password combination" for a wrong password, by email and by username', async () => {
    const { context, page } = await e2e.newPage();

    for (const identifier of [USERS.admin.email, USERS.buyer.username]) {
      await submitSignIn(page, identifier, 'not-the-password-1');
      const failure = page.getByRole('alert').filter({ hasText: 'Incorrect email and password combination' });
      await failure.waitFor();
      expect(await failure.textContent()).toBe('Incorrect email and password combination');
      // Still a guest, still on the form.
      expect(await page.evaluate(() => fetch('/api/session').then((r) => r.status))).toBe(401);
      await expectPath(page, '/auth');
      expect(await navigation(page).count()).toBe(0);
    }
    await context.close();
  });

  it("marks empty fields with 'Field is not optional' and sends nothing", async () => {
    const { context, page } = await e2e.newPage();
    const signIns: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/sign-in')) signIns.push(request.url());
    });
    await page.goto('/auth');

    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect.poll(() => page.getByText('Field is not optional', { exact: true }).count()).toBe(2);
    expect(signIns).toEqual([]);
    await context.close();
  });

  it('says the same for an account that does not exist', async () => {
    const { context, page } = await e2e.newPage();

    await submitSignIn(page, 'nobody-here', 'not-the-password-1');

    await page.getByRole('alert').filter({ hasText: 'Incorrect email and password combination' }).waitFor();
    await expectPath(page, '/auth');
    await context.close();
  });
});

describe('/logout', () => {
  it('ends the session: the user lands on /auth, the API answers 401 and / leads back to /auth', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    expect(await page.evaluate(() => fetch('/api/session').then((r) => r.status))).toBe(200);

    await page.goto('/logout');

    await expectPath(page, '/auth');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => fetch('/api/session').then((r) => r.status))).toBe(401);
    // The server ended the session: the browser holds no cookie that still signs in.
    const session = await page.request.get('/api/session');
    expect(session.status()).toBe(401);

    await page.goto('/');
    await expectPath(page, '/auth');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await navigation(page).count()).toBe(0);

    // Nor does a deep link into the admin's area.
    await page.goto('/buyers');
    await expectPath(page, '/auth');
    await context.close();
  });

  it('is the Logout entry of the menu, for a buyer too', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);

    await navigation(page).getByRole('link', { name: 'Logout' }).click();

    await expectPath(page, '/auth');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => fetch('/api/session').then((r) => r.status))).toBe(401);
    await page.goBack();
    await expectPath(page, '/auth');
    await context.close();
  });

  it('lets the next user of the same tab see only their own area', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await navigation(page).getByRole('link', { name: 'Buyers' }).click();
    await page.getByRole('link', { name: 'Create New Buyer' }).waitFor();

    await navigation(page).getByRole('link', { name: 'Logout' }).click();
    await expectPath(page, '/auth');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The sign-in form settles once the ended session is re-read: type into the form that stays.
    await expect
      .poll(async () => {
        await page.getByLabel('Email or username').fill(USERS.buyer.username);
        await page.getByLabel('Password', { exact: true }).fill(USERS.buyer.password);
        await page.waitForTimeout(200);
        return page.getByLabel('Email or username').inputValue();
      })
      .toBe(USERS.buyer.username);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expectPath(page, '/');
    await expect.poll(() => menuTexts(page)).toEqual(MENUS.buyer);
    await page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();
    expect(await page.getByTestId('user-role').textContent()).toBe('Buyer');
    await context.close();
  });

  it('takes a guest who visits /logout to /auth without an error', async () => {
    const { context, page } = await e2e.newPage();

    await page.goto('/logout');

    await expectPath(page, '/auth');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.locator('[data-position="top-center"]').getByRole('alert').count()).toBe(0);
    await context.close();
  });

  it('a session that ends while the app is open sends the user to /auth on the next call', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    // The dashboard's own calls finish first: one still in flight when the cookies go would already
    // send the user to /auth, and the Buyers link would be gone before the click below.
    await waitForSettled(page);

    await context.clearCookies(); // the session is gone (expired, or ended elsewhere)
    await navigation(page).getByRole('link', { name: 'Buyers' }).click();

    await expectPath(page, '/auth');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await navigation(page).count()).toBe(0);
    await context.close();
  });
});
