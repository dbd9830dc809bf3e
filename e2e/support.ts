import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { E2E_ADMIN } from './global-setup';

/** The sign-ins of the demo exchange the e2e server is seeded with (global-setup.ts). */
export const USERS = {
  admin: { username: 'admin', email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  buyer: { username: 'summit-roofing', email: 'leads@summitroofing.example', password: 'demo-buyer-1' },
  /** welcome flag false, may post leads. */
  source: { username: 'apex-leads', password: 'demo-source-1' },
  /** welcome flag true: its home is the onboarding welcome page. */
  welcomeSource: { username: 'homequote', password: 'demo-source-1' },
} as const;

/** The seeded buyer the buyer sign-in belongs to. */
export const DEMO_BUYER_NAME = 'Summit Roofing Co.';

/** The menus of both specs' §2, in their order, Logout last. */
export const MENUS = {
  admin: [
    'Home',
    'Leads',
    'Returns',
    'Buyers',
    'Campaigns',
    'Sources',
    'Bills',
    'Settings',
    'Custom Deliveries',
    'Messages',
    'Logout',
  ],
  buyer: ['Home', 'Profile', 'Leads', 'Campaigns', 'Bills', 'Custom Deliveries', 'Logout'],
  source: ['Home', 'Profile', 'Leads', 'API Doc', 'Logout'],
};

/** A value no earlier run on the same server has used (usernames are lower-case, [a-z0-9_-]). */
export function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296)
    .toString(36)
    .padStart(2, '0')}`;
}

/** Fills and submits the /auth form; does not wait for the outcome. */
export async function submitSignIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email or username').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the /auth form and waits until the role's frame (its side navigation) is up. */
export async function signIn(page: Page, identifier: string, password: string): Promise<void> {
  await submitSignIn(page, identifier, password);
  await navigation(page).waitFor();
}

/** The side navigation of the signed-in frame. */
export function navigation(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

/** The texts of the side navigation's links, top to bottom. */
export async function menuTexts(page: Page): Promise<string[]> {
  return (await navigation(page).getByRole('link').allInnerTexts()).map((text) => text.trim());
}

/** The page's path (no origin, no query). */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Waits until the page has settled on `path` (the app's redirects are client-side). */
export async function expectPath(page: Page, path: string | RegExp): Promise<void> {
  if (typeof path === 'string') await expect.poll(() => pathOf(page)).toBe(path);
  else await expect.poll(() => pathOf(page)).toMatch(path);
}

/** A toast (spec §8: top centre) showing `text`. */
export function toast(page: Page, text: string): Locator {
  return page.locator('[data-position="top-center"]').getByRole('alert').filter({ hasText: text });
}

/** Waits for the error toast carrying `message` and checks it is the spec's: red, titled 'Error', top centre. */
export async function expectErrorToast(page: Page, message: string): Promise<void> {
  const shown = toast(page, message);
  await shown.waitFor();
  const { title, text, accent } = await shown.evaluate((el) => ({
    title: el.querySelector('.mantine-Notification-title')?.textContent ?? '',
    text: el.querySelector('.mantine-Notification-description')?.textContent ?? '',
    // Mantine draws the notification's colour as the bar before its body.
    accent: getComputedStyle(el, '::before').backgroundColor,
  }));
  expect(title).toBe('Error');
  expect(text).toBe(message);
  expect(accent).toBe('rgb(240, 62, 62)'); // Mantine's red.6, the filled red
}

/** The error shown under a form field: the text of the elements that describe the input. */
export async function fieldError(input: Locator): Promise<{ invalid: boolean; message: string }> {
  return input.evaluate((el) => ({
    invalid: el.getAttribute('aria-invalid') === 'true',
    message: (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  }));
}

/** Collects the requests the page sends with `method` to a URL matching `url`. */
export function recordRequests(page: Page, method: string, url: RegExp): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.method() === method && url.test(request.url())) seen.push(request.url());
  });
  return seen;
}

/** The records shown by the page's data table (mantine-datatable keeps an empty row while it has none). */
export function tableRows(page: Page) {
  return page.locator('table tbody tr:not(.mantine-datatable-empty-row)');
}

/** Picks an option of a Mantine select or multi-select. */
export async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The page grown to its full height, so a full-page capture shows the side navigation whole. */
export async function growToPage(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1440, height: Math.max(900, height) });
  await expect
    .poll(async () => {
      const box = await navigation(page).boundingBox();
      return box && Math.round(box.y + box.height);
    })
    .toBe(Math.max(900, height));
}

/**
 * Where screenshots go for a person to look at: $E2E_SHOTS, else a folder in the temp directory.
 * Never the repository, so a test run leaves the tree as it found it.
 */
export const SCREENSHOTS = process.env.E2E_SHOTS ?? join(tmpdir(), 'leadex-e2e-screenshots');

/** Captures the page (or one element of it) as SCREENSHOTS/{name}.png. */
export async function screenshot(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await target.screenshot({ path: join(SCREENSHOTS, `${name}.png`), ...options });
}
