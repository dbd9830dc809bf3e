import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { fullPageScreenshot } from './screenshots';
import { apexKey, USERS, unique } from './support';

/**
 * Issue 34: the admin uploads a global list of phones (a CSV, with its progress), a post of a listed
 * phone is refused `suppressed` and the admin's explanation names the list; the demo buyer records an
 * opt-out from its portal.
 */
const e2e = useBrowser();

describe('suppression lists and opt-outs', () => {
  it('uploads a list, refuses a post of a listed phone, and records an opt-out', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const name = `E2E litigators ${unique()}`;
    const phone = `512555${String(Math.floor(Math.random() * 9000) + 1000)}`;
    await admin.page.goto('/suppression');
    await admin.page.getByRole('heading', { name: 'Suppression', exact: true }).waitFor();
    await admin.page.getByLabel('Name').fill(name);
    await admin.page.getByRole('button', { name: 'New list' }).click();
    const row = admin.page.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    await row.click();
    // A CSV with a header, three phones (one written twice) and a line that is not a phone.
    const csv = `phone\n${phone}\n(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}\n12345\n2125552368\n`;
    await admin.page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'litigators.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await admin.page.getByRole('button', { name: 'Upload', exact: true }).click();
    const result = admin.page.getByTestId('import-result');
    await result.waitFor();
    await expect.poll(() => result.textContent()).toContain('added 2');
    await expect.poll(() => row.textContent()).toContain('2');
    await fullPageScreenshot(admin.page, 'suppression-admin-uploaded');

    // A post of the listed phone is refused before pricing: the source reads only "suppressed".
    const key = await apexKey(admin.page.request, `Suppression e2e ${unique()}`);
    const res = await admin.page.request.post('/api/lead', {
      headers: { authorization: `Bearer ${key}` },
      data: {
        service: 'roofing',
        zip: '10002',
        name: 'Sue Pressed',
        phone,
        email: `${unique()}@sup.example`,
        tcpa_consent: true,
      },
    });
    const answer = (await res.json()) as { ok: boolean; reason: string; lead_id: string };
    expect(answer).toEqual({ ok: false, reason: 'suppressed', lead_id: expect.any(String) });
    expect(JSON.stringify(answer)).not.toContain(name);
    // The admin's lead detail names the list.
    await admin.page.goto(`/lead/${answer.lead_id}`);
    await admin.page.getByText(name, { exact: false }).first().waitFor();
    await fullPageScreenshot(admin.page, 'suppression-admin-refused-lead');
    await admin.context.close();

    // The buyer records an opt-out from its portal.
    const buyer = await e2e.signedIn(USERS.buyer);
    await buyer.page.goto('/suppression');
    await buyer.page.getByRole('heading', { name: 'Opt-outs' }).waitFor();
    const stopPhone = `512555${String(Math.floor(Math.random() * 9000) + 1000)}`;
    await buyer.page.getByLabel('Phone').fill(stopPhone);
    await buyer.page.getByLabel('Note').fill('Texted STOP to our short code');
    await buyer.page.getByRole('button', { name: 'Record opt-out' }).click();
    await buyer.page.getByText(/is suppressed for every buyer/).waitFor();
    await buyer.page.getByRole('cell', { name: `•••-•••-${stopPhone.slice(6)}` }).waitFor();
    await fullPageScreenshot(buyer.page, 'suppression-buyer-opt-out');
    await buyer.context.close();
  });
});
