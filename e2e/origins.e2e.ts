import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, useBrowser } from './browser';
import { expectPath, navigation, USERS } from './support';

const e2e = useBrowser();

/**
 * Issue 9, item 1: the exchange opened at another loopback name than PUBLIC_URL (the e2e server's
 * PUBLIC_URL is http://127.0.0.1:PORT) signs in by email and out; a refused origin reads as a sentence.
 */
describe('origins', () => {
  it('signs in by email and out again at http://localhost:PORT', async () => {
    const { context, page } = await e2e.newPage();
    const other = e2e.baseURL.replace('127.0.0.1', 'localhost');
    expect(other).not.toBe(e2e.baseURL);

    await page.goto(`${other}/auth`);
    await page.getByLabel('Email or username').fill(USERS.admin.email);
    await page.getByLabel('Password', { exact: true }).fill(USERS.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await navigation(page).waitFor();
    expect(new URL(page.url()).origin).toBe(other);
    expect((await page.request.get(`${other}/api/session`)).status()).toBe(200);

    await page.goto(`${other}/logout`);
    await expectPath(page, '/auth');
    expect((await page.request.get(`${other}/api/session`)).status()).toBe(401);
    // The session is gone on the server, not only in this tab: home sends the visitor to sign in.
    await page.goto(`${other}/`);
    await expectPath(page, '/auth');
    await context.close();
  });

  it('says which address to use when the page was opened at one the exchange refuses', async () => {
    // The exchange reached under a name it was not told about: this browser resolves it to the server.
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP leads.example 127.0.0.1'],
    });
    try {
      const page = await browser.newPage();
      const elsewhere = e2e.baseURL.replace('127.0.0.1', 'leads.example');
      await page.goto(`${elsewhere}/auth`);
      await page.getByLabel('Email or username').fill(USERS.admin.email);
      await page.getByLabel('Password', { exact: true }).fill(USERS.admin.password);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page
        .getByText(
          `This page was opened at ${elsewhere}, which the exchange does not accept. Open it at ${e2e.baseURL} instead.`,
        )
        .waitFor();
      expect(await page.getByText('Invalid origin').count()).toBe(0);
      await expectPath(page, '/auth');
      await page.screenshot({ path: '/tmp/origin-refused.png' });
    } finally {
      await browser.close();
    }
  });
});
