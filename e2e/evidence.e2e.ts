import type { APIRequestContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { tableRows } from './screen';
import { apexKey, USERS } from './support';

/**
 * Issue 32 item 8: a TrustedForm certificate URL on another host is kept out of the lead and flagged,
 * and no screen offers it as a certificate: no "Yes" in the admin's list, no "Open the TrustedForm
 * certificate" button on the admin's, the buyer's or the source's lead detail. A valid one gets both.
 */
const e2e = useBrowser();

const VALID = 'https://cert.trustedform.com/3f786850e387550fdab836ed7e6dc881de23001b';
const LOOK_ALIKE = 'https://cert.trustedform.com.evil.io/3f786850e387550fdab836ed7e6dc881de23001b';
const OPEN = 'Open the TrustedForm certificate';

/** Both sold to Summit Roofing's Texas campaign by Apex Lead Partners, so every role sees them. */
const LEADS = {
  valid: { name: 'Val Evidence', trusted_form: VALID },
  lookAlike: { name: 'Lou Lookalike', trusted_form: LOOK_ALIKE },
};
const ids = { valid: '', lookAlike: '' };

async function postLead(api: APIRequestContext, key: string, lead: { name: string; trusted_form: string }) {
  const res = await api.post('/api/lead', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      service: 'roofing',
      zip: '75201',
      campaign: 'SUMMIT-TXOK',
      email: `${lead.name.split(' ')[0]}@example.com`,
      ...lead,
    },
  });
  const answer = (await res.json()) as { ok: boolean; lead_id: string; warnings?: string[] };
  expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true, status: 'sold' });
  return answer;
}

beforeAll(async () => {
  const { context, page } = await e2e.signedIn(USERS.admin);
  const key = await apexKey(page.request, 'Evidence e2e');
  const valid = await postLead(page.request, key, LEADS.valid);
  expect(valid.warnings).toBeUndefined();
  const lookAlike = await postLead(page.request, key, LEADS.lookAlike);
  expect(lookAlike.warnings).toEqual([expect.stringContaining('evil.io')]);
  ids.valid = valid.lead_id;
  ids.lookAlike = lookAlike.lead_id;
  await context.close();
});

/** The lead detail of `id` as the signed-in page shows it, once its heading is in. */
async function openLead(page: Page, id: string, name: string) {
  await page.goto(`/lead/${id}`);
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

describe('TrustedForm evidence on the screens (#32.8)', () => {
  it.each([
    ['admin', USERS.admin, 'Trusted Form'],
    ['buyer', USERS.buyer, 'Trusted Form'],
    ['source', USERS.source, 'Trusted_Form'],
  ] as const)('the %s’s lead detail opens only a certificate on TrustedForm’s host', async (_, user, label) => {
    const { context, page } = await e2e.signedIn(user);
    await openLead(page, ids.valid, LEADS.valid.name);
    const open = page.getByRole('link', { name: OPEN });
    await open.waitFor();
    expect(await open.getAttribute('href')).toBe(VALID);
    expect(await page.getByRole('textbox', { name: label, exact: true }).inputValue()).toBe(VALID);

    await openLead(page, ids.lookAlike, LEADS.lookAlike.name);
    // The flag says what was sent and why it is not a certificate; it is text, never a link.
    await page.getByText(/Sent “https:\/\/cert\.trustedform\.com\.evil\.io\//).waitFor();
    expect(await page.getByRole('link', { name: OPEN }).count()).toBe(0);
    expect(await page.locator('a[href*="evil.io"]').count()).toBe(0);
    expect(await page.getByRole('textbox', { name: label, exact: true }).inputValue()).toBe('');
    await context.close();
  });

  it('the admin’s leads list says Yes only for the valid certificate', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1920, height: 1000 });
    const session = (await (await page.request.get('/api/session')).json()) as { user_id: string; role: string };
    // Every column shown (a laptop's defaults hide some).
    await page.addInitScript(
      (storageKey) => localStorage.setItem(storageKey, '[]'),
      `leadex:lead-columns:${session.role}:${session.user_id}`,
    );
    await page.goto('/leads');
    const cell = async (name: string) => {
      const row = tableRows(page).filter({ hasText: name });
      await row.waitFor();
      const titles = (await page.locator('table thead th').allInnerTexts()).map((t) => t.trim());
      const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
      return cells[titles.indexOf('Trusted Form')];
    };
    expect(await cell(LEADS.valid.name)).toBe('Yes');
    expect(await cell(LEADS.lookAlike.name)).toBe('No');
    await context.close();
  });
});
