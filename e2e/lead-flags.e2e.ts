import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { apexKey, USERS, unique } from './support';

/**
 * Issue 32 item 4 in Chromium: a lead whose homeowner could not be read and whose state contradicts its
 * ZIP shows each flag beside its field, and its unsent TCPA consent reads Unknown, never No, on the
 * admin's lead detail and the source's.
 */
const e2e = useBrowser();
const RUN = unique();

async function postFlaggedLead(): Promise<string> {
  const { context, page } = await e2e.signedIn(USERS.admin);
  const key = await apexKey(page.request, `Flags e2e ${RUN}`);
  const res = await page.request.post('/api/lead', {
    headers: { authorization: `Bearer ${key}` },
    data: {
      service: 'roofing',
      zip: '75201',
      state: 'NY',
      name: `Flagged ${RUN}`,
      email: `flagged.${RUN}@flags-e2e.example`,
      homeowner: 'maybe',
    },
  });
  const answer = (await res.json()) as { lead_id?: string; warnings?: string[] };
  expect(res.status(), JSON.stringify(answer)).toBe(200);
  expect(answer.warnings).toHaveLength(2);
  await context.close();
  return answer.lead_id as string;
}

describe('a lead’s field flags and unknown answers', () => {
  it('shows each flag beside its field and Unknown for what was not sent, to the admin and the source', async () => {
    const leadId = await postFlaggedLead();
    for (const user of [USERS.admin, USERS.source]) {
      const { context, page } = await e2e.signedIn(user);
      await page.goto(`/lead/${leadId}`);
      await expect
        .poll(() => page.locator('[data-field-flag="homeowner"]').textContent())
        .toBe('Sent “maybe”. Could not be read: it is neither a yes nor a no. The lead records it as unknown.');
      await expect
        .poll(() => page.locator('[data-field-flag="state"]').textContent())
        .toBe('Sent “NY”. NY does not match ZIP 75201, which is in TX: the lead is routed and delivered as TX.');
      if (user === USERS.admin) {
        // The admin's select, read-only: empty, its placeholder Unknown (never No).
        const consent = page.getByRole('textbox', { name: 'TCPA Consent' });
        await expect.poll(() => consent.getAttribute('placeholder')).toBe('Unknown');
        expect(await consent.inputValue()).toBe('');
      } else {
        // The source's badges: TCPA_Consent (not sent) and Homeowner (not read) are both Unknown.
        await expect.poll(() => page.getByText('Unknown', { exact: true }).count()).toBe(2);
        expect(await page.getByText('No', { exact: true }).count()).toBe(0);
      }
      await context.close();
    }
  });
});
