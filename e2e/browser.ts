import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { checkEveryScreen, checkedScreensIn } from './accessibility';
import { apiCall, signInThroughApi, USERS } from './support';

/** Debian's Chromium, started as this machine allows (no sandbox as root, no background networking). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface E2E {
  browser: Browser;
  baseURL: string;
  /**
   * A fresh browser context (no cookies) and page. Each screen the file's pages show is checked with
   * axe-core once, before the first action on it, `goto` away from it or close (accessibility.ts).
   */
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * A fresh page with `user` signed in (by username or email) through the API (`signInThroughApi`), on its home.
   * `clipboard` lets the page read and write the clipboard (a copied API key).
   */
  signedIn(
    user: { username: string; password: string },
    options?: { clipboard?: boolean },
  ): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * The exchange this file runs against: its worker's own (global-setup.ts), so the file running beside
 * it in the other worker never shares its exchange.
 */
function exchangeOfThisWorker(): string {
  const urls = inject('baseURLs');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const url = urls[worker - 1];
  if (!url) throw new Error(`no exchange was started for Vitest worker ${worker} (${urls.length} started)`);
  return url;
}

/** Starts Chromium for one test file and closes it after. */
export function useBrowser(): E2E {
  const e2e = { baseURL: exchangeOfThisWorker() } as E2E;
  /** The screens this run's pages have had checked with axe-core (accessibility.ts). */
  const screensChecked = checkedScreensIn(inject('screensCheckedDir'));
  beforeAll(async () => {
    e2e.browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    e2e.newPage = async () => {
      const context = await e2e.browser.newContext({ baseURL: e2e.baseURL, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      checkEveryScreen(context, page, screensChecked);
      return { context, page };
    };
    e2e.signedIn = async (user, { clipboard = false } = {}) => {
      const opened = await e2e.newPage();
      if (clipboard) {
        await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.baseURL });
      }
      await signInThroughApi(opened.page, e2e.baseURL, user);
      return opened;
    };
  });
  afterAll(async () => {
    await e2e.browser?.close();
  });
  return e2e;
}

/**
 * For a file whose tests move the exchange's mock date: after its tests, the clock goes back to the
 * real time whatever happened (a test that passes resets it itself), so the next file starts on time.
 */
export function resetMockDateAfterAll(e2e: E2E): void {
  afterAll(async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await apiCall(page.request, 'post', '/api/sim/mockDate', { reset: true });
    await context.close();
  });
}

/**
 * For a file that changed a buyer for its tests (the demo buyer's auto-approve share, a switch): after
 * them, an admin puts back the fields `restore` answers (read then: what the file's set-up kept).
 */
export function restoreBuyerAfterAll(e2e: E2E, restore: () => { buyerId: string; fields: object }): void {
  afterAll(async () => {
    const { buyerId, fields } = restore();
    const { context, page } = await e2e.signedIn(USERS.admin);
    await apiCall(page.request, 'put', `/api/buyer/${buyerId}`, fields);
    await context.close();
  });
}
