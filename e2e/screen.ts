import type { Locator, Page, Request } from 'playwright-core';
import { expect } from 'vitest';

// What a screen shows (toasts, field errors, tables, sections) and how its controls are worked.

/** A toast (spec §8: top centre) showing `text`. */
export function toast(page: Page, text: string): Locator {
  return page.locator('[data-position="top-center"]').getByRole('alert').filter({ hasText: text });
}

/**
 * Closes the toast showing `text` (it would cover the top of a screenshot), unless it closes itself
 * first: a success toast goes after 4 s, which a busy machine can spend on the screen's accessibility
 * check that runs before the click. Either way the toast is gone when this returns.
 */
export async function closeToast(page: Page, text: string): Promise<void> {
  const shown = toast(page, text);
  const hidden = shown.waitFor({ state: 'hidden' });
  // Whichever comes first. A click that finds no toast left to click is let go: `hidden` decides.
  const clicked = shown
    .locator('button')
    .click()
    .catch(() => undefined);
  await Promise.race([hidden, clicked]);
  await hidden;
}

/** Opens a delivery's Test modal (Test, on the read-only detail); answers it and the names of its inputs. */
export async function openDeliveryTest(page: Page) {
  await page.getByRole('button', { name: 'Test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Test Results' });
  await dialog.waitFor();
  const inputs = await dialog.getByRole('textbox').evaluateAll((els) => els.map((el) => el.getAttribute('name')));
  return { dialog, inputs };
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

/** Collects the URLs of the requests the page sends with `method` to a URL matching `url`. */
export function recordRequests(page: Page, method: string, url: RegExp): string[] {
  return record(page, method, url, (request) => request.url());
}

/** Collects the JSON bodies of the requests the page sends with `method` to a URL matching `url`. */
export function recordBodies<T = unknown>(page: Page, method: string, url: RegExp): T[] {
  return record(page, method, url, (request) => request.postDataJSON() as T);
}

function record<T>(page: Page, method: string, url: RegExp, read: (request: Request) => T): T[] {
  const seen: T[] = [];
  page.on('request', (request) => {
    if (request.method() === method && url.test(request.url())) seen.push(read(request));
  });
  return seen;
}

/**
 * The records shown by the data tables of `scope` (a page, or one section of it); mantine-datatable
 * keeps an empty row while it has none.
 */
export function tableRows(scope: Page | Locator) {
  return scope.locator('table tbody tr:not(.mantine-datatable-empty-row)');
}

/** A titled section of a detail page (its card holds the title's heading). */
export function section(page: Page, title: string): Locator {
  return page.locator('.mantine-Paper-root').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/** Picks an option of a Mantine select or multi-select. */
export async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Picks an option of a Mantine select and waits until the select shows it. */
export async function chooseAndWait(page: Page, select: Locator, option: string) {
  await choose(page, select, option);
  await expect.poll(() => select.inputValue()).toBe(option);
}

/**
 * Adds a user through the Users section's modal (`modalTitle`: Buyer or Source User Details, one web
 * component): Save with nothing filled names both required fields under them, then the filled form is
 * saved, a toast says so and the modal closes. Answers the modal and the new user's row, shown Active.
 */
export async function addUserInModal(
  page: Page,
  users: Locator,
  modalTitle: string,
  user: { name: string; email: string },
): Promise<{ modal: Locator; row: Locator }> {
  await users.getByRole('button', { name: 'Add User' }).click();
  const modal = page.getByRole('dialog', { name: modalTitle });
  await modal.waitFor();
  await modal.getByRole('button', { name: 'Save' }).click();
  for (const [field, message] of [
    ['Name', 'Name is required'],
    ['Email', 'Email is required'],
  ] as const) {
    await modal.getByText(message, { exact: true }).waitFor();
    expect((await fieldError(modal.getByRole('textbox', { name: field }))).message).toBe(message);
  }
  await modal.getByRole('textbox', { name: 'Name' }).fill(user.name);
  await modal.getByRole('textbox', { name: 'Email' }).fill(user.email);
  await modal.getByRole('button', { name: 'Save' }).click();
  await toast(page, 'User added successfully').waitFor();
  await modal.waitFor({ state: 'detached' });
  const row = tableRows(users).filter({ hasText: user.email });
  await row.getByText('Active', { exact: true }).waitFor();
  return { modal, row };
}
