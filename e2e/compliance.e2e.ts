import { beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { screenshot } from './screenshots';
import { apexKey, USERS } from './support';

/**
 * Issue 34 items 3-5: the buyer reads a lead's consent evidence and the consumer's calling window on
 * the lead detail, and downloads the evidence; the named-consent names are the buyer's own.
 */
const e2e = useBrowser();

const LANGUAGE = 'By clicking Get Quotes I agree that Summit Roofing Co. may call and text me about roofing.';
let leadId = '';

beforeAll(async () => {
  // The buyer names its company, as its portal's API session may.
  const buyer = await e2e.signedIn(USERS.buyer);
  const session = (await (await buyer.page.request.get('/api/session')).json()) as { role_id: string };
  const named = await buyer.page.request.put(`/api/buyer/${session.role_id}/legal-names`, {
    data: { legal_names: ['Summit Roofing Company'] },
  });
  expect(named.status()).toBe(200);
  await buyer.context.close();

  const { context, page } = await e2e.signedIn(USERS.admin);
  const key = await apexKey(page.request, 'Compliance e2e');
  const res = await page.request.post('/api/lead', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      service: 'roofing',
      zip: '75201',
      campaign: 'SUMMIT-TXOK',
      name: 'Cora Consent',
      email: 'cora.consent@example.com',
      tcpa_consent: true,
      tcpa_language: LANGUAGE,
      ip: '203.0.113.44',
      user_agent: 'Mozilla/5.0 (consumer phone)',
      page_url: 'https://quotes.example.com/roofing/dallas',
      consent_snapshot: 'Get Quotes — By clicking Get Quotes I agree that Summit Roofing Co. may call and text me.',
    },
  });
  const answer = (await res.json()) as { status: string; lead_id: string };
  expect(answer, JSON.stringify(answer)).toMatchObject({ status: 'sold' });
  leadId = answer.lead_id;
  await context.close();
});

describe('consent evidence and calling window on the lead detail (#34)', () => {
  it('the buyer reads them, downloads the evidence, and its hash checks', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/lead/${leadId}`);
    await page.getByRole('heading', { name: 'Cora Consent', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Calling Window' }).waitFor();
    await page.getByText('May call 9am-9pm CT, Sundays 12pm-9pm').waitFor();
    await page.getByRole('heading', { name: 'Consent Evidence' }).waitFor();
    await page.getByText('Hash checks').waitFor();
    expect(await page.getByRole('textbox', { name: 'Names the consent covers' }).inputValue()).toBe(
      'Summit Roofing Company',
    );
    expect(await page.getByRole('textbox', { name: 'Page URL' }).inputValue()).toBe(
      'https://quotes.example.com/roofing/dallas',
    );
    expect(await page.getByRole('textbox', { name: 'Consent language as sent' }).inputValue()).toBe(LANGUAGE);
    const pdf = page.getByRole('link', { name: 'PDF' });
    expect(await pdf.getAttribute('href')).toBe(`/api/lead/${leadId}/consent-evidence.pdf`);
    const file = await page.request.get(`/api/lead/${leadId}/consent-evidence.json`);
    expect(file.status()).toBe(200);
    expect(((await file.json()) as { hash_checks: boolean }).hash_checks).toBe(true);
    const section = page
      .locator('section, div')
      .filter({ has: page.getByRole('heading', { name: 'Calling Window' }) })
      .last();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'compliance-lead-detail-buyer', { fullPage: true });
    await context.close();
  });

  it('the admin sees them too, with the legal hold', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/lead/${leadId}`);
    await page.getByRole('heading', { name: 'Consent Evidence' }).waitFor();
    await page.getByRole('button', { name: 'Legal Hold' }).click();
    await page.getByText('under a legal hold').waitFor();
    await screenshot(page, 'compliance-lead-detail-admin', { fullPage: true });
    await page.getByRole('button', { name: 'Lift Legal Hold' }).click();
    await page.getByText(/kept until \d{4}-\d{2}-\d{2}/).waitFor();
    await context.close();
  });
});

describe('consent settings: evidence retention and Medicare services (#34)', () => {
  it('the admin sets how long evidence is kept and marks a service Medicare, from Settings', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    const keptUntil = async () =>
      (
        (await (await page.request.get(`/api/lead/${leadId}/compliance`)).json()) as {
          evidence: { retained_until: string };
        }
      ).evidence.retained_until;
    const before = await keptUntil();
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Consent' }).waitFor();
    const years = page.getByRole('textbox', { name: 'Keep consent evidence (years)' });
    await years.waitFor();
    expect(await years.inputValue()).toBe('6');
    await years.fill('4');
    await page.getByRole('button', { name: 'Set Retention' }).click();
    await page.getByText('Years must be at least 5').waitFor();
    await years.fill('7');
    await page.getByRole('button', { name: 'Set Retention' }).click();
    await page.getByText('Consent evidence is now kept 7 years.').waitFor();
    expect(Number((await keptUntil()).slice(0, 4))).toBe(Number(before.slice(0, 4)) + 1);

    const medicare = page.getByRole('switch', { name: 'Medicare: Auto Insurance' });
    expect(await medicare.isChecked()).toBe(false);
    await medicare.click({ force: true });
    await page.getByText('Auto Insurance is Medicare').waitFor();
    const marked = (await (await page.request.get('/api/compliance/services')).json()) as {
      name: string;
      medicare: boolean;
    }[];
    expect(marked.find((s) => s.name === 'auto_insurance')?.medicare).toBe(true);
    expect(marked.find((s) => s.name === 'roofing')?.medicare).toBe(false);
    await page.getByRole('table', { name: 'Medicare services' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'compliance-settings-consent');

    // Back as the other files expect them.
    await medicare.click({ force: true });
    await page.getByText('Auto Insurance is no longer Medicare.').waitFor();
    await years.fill('6');
    await page.getByRole('button', { name: 'Set Retention' }).click();
    await page.getByText('Consent evidence is now kept 6 years.').waitFor();
    expect(await keptUntil()).toBe(before);
    await context.close();
  });
});
