import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { addUserInModal, fieldError, recordBodies, recordRequests, section, tableRows, toast } from './screen';
import { fullPageScreenshot, screenshot } from './screenshots';
import { expectCreated, expectPath, navigation, USERS, unique } from './support';

const e2e = useBrowser();

/** A seeded source with channels, a key, a user and demo leads. */
const DEMO_SOURCE = 'Apex Lead Partners';

/** A valid, unique US mobile number in Phoenix. */
const phone = () => `602${String(2_000_000 + Math.floor(Math.random() * 7_999_999))}`;

// First in this file, on the freshly seeded exchange: the list shows the demo sources only.
describe('screenshots for the issue (docs/screenshots)', () => {
  it('the sources list and a source’s detail page, 1440x900, full page', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin, { clipboard: true });
    await page.setViewportSize({ width: 1440, height: 900 });

    await navigation(page).getByRole('link', { name: 'Sources' }).click();
    await expectPath(page, '/sources');
    await tableRows(page).filter({ hasText: DEMO_SOURCE }).waitFor();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'sources-list', { fullPage: true });

    await tableRows(page).filter({ hasText: DEMO_SOURCE }).click();
    await expectPath(page, /^\/source\/src_/);
    await page.getByRole('heading', { name: DEMO_SOURCE }).waitFor();
    await tableRows(section(page, 'Leads')).first().waitFor();
    await fullPageScreenshot(page, 'source-detail');
    await context.close();
  });
});

describe('a new source, from the form to a sold lead', () => {
  it('creates a source with a channel, invites a user, creates and copies a key, and sells a lead with it', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin, { clipboard: true });
    const posts = recordRequests(page, 'POST', /\/api\/source$/);
    const suffix = unique();
    const name = `Desert Sun Leads ${suffix}`;
    const userEmail = `ops-${suffix}@desertsun.example`;

    // The list's button opens the empty form.
    await page.goto('/sources');
    await page.getByRole('link', { name: 'Create New Source' }).click();
    await expectPath(page, '/source/new');
    await page.getByRole('heading', { name: 'New Source' }).waitFor();

    const form = {
      name: page.getByRole('textbox', { name: 'Name', exact: true }),
      email: page.getByRole('textbox', { name: 'Email', exact: true }),
      phone: page.getByRole('textbox', { name: 'Phone', exact: true }),
      leadCost: page.getByRole('textbox', { name: 'Lead Cost' }),
      channelName: page.getByRole('textbox', { name: 'Channel name' }),
      maxCost: page.getByRole('textbox', { name: 'Max cost' }),
      save: page.getByRole('button', { name: 'Save' }),
    };

    // Saving the empty form with an empty channel row shows the spec's messages; nothing is sent.
    await page.getByRole('button', { name: 'Add Channel' }).click();
    await form.save.click();
    await page.getByText('Name is required', { exact: true }).waitFor();
    expect(await fieldError(form.name)).toEqual({ invalid: true, message: 'Name is required' });
    expect((await fieldError(form.email)).message).toBe('Email is required');
    expect((await fieldError(form.phone)).message).toBe('Phone is required');
    expect((await fieldError(form.channelName)).message).toBe('Channel name is required');
    expect((await fieldError(form.maxCost)).message).toBe('Max cost is required');
    expect(posts).toEqual([]);

    await form.name.fill(name);
    await form.email.fill(`partners-${suffix}@desertsun.example`);
    await form.phone.fill('6025550150');
    await form.leadCost.fill('6');
    await form.channelName.fill('tiktok');
    await form.maxCost.fill('4.5');
    await form.save.click();

    const sourceId = await expectCreated(page, /^\/source\/src_/, name);
    expect(posts).toHaveLength(1);
    expect(await form.channelName.inputValue()).toBe('tiktok');
    await page.getByText('No Activity', { exact: true }).waitFor();

    // Add User: the 'Source User Details' modal needs a name and an email.
    const users = section(page, 'Users');
    const { row: userRow } = await addUserInModal(page, users, 'Source User Details', {
      name: 'Rosa Delgado',
      email: userEmail,
    });

    // The welcome email to a source without a key offers to create one.
    await userRow.getByRole('button', { name: 'Send welcome email' }).click();
    await toast(page, `Welcome email successfully sent to ${userEmail}.`).waitFor();
    const prompt = page.getByRole('dialog', { name: 'Create an API key?' });
    await prompt.waitFor();
    await prompt.getByRole('button', { name: 'Create API Key' }).click();
    await toast(page, 'API key API Key 1 created').waitFor();

    // The key is shown in the API Keys table, Active; the copy button copies it, "Copied" for 500 ms.
    const keys = section(page, 'API Keys');
    const keyRow = tableRows(keys).filter({ hasText: 'API Key 1' });
    await keyRow.getByText('Active', { exact: true }).waitFor();
    const shown = ((await keyRow.locator('code').textContent()) ?? '').trim();
    expect(shown).toMatch(/^lx_/);
    await keyRow.getByRole('button', { name: 'Copy API key' }).click();
    await keyRow.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(shown);
    await keyRow.getByRole('button', { name: 'Copy API key' }).waitFor({ timeout: 2000 });

    // The copied key pings and posts a solar lead in Phoenix: BrightPath's live Southwest campaign buys it.
    const auth = { authorization: `Bearer ${copied}` };
    const ping = await page.request.post('/api/ping', {
      headers: auth,
      data: { service: 'solar', zip: '85004', channel: 'tiktok' },
    });
    const quoted = await ping.json();
    expect(quoted).toMatchObject({ ok: true, price: 4.5 });
    const leadName = `Marisol Vega ${suffix}`;
    const sale = await page.request.post('/api/post', {
      headers: auth,
      data: { ping_id: quoted.ping_id, name: leadName, phone: phone(), email: `marisol-${suffix}@example.com` },
    });
    expect(await sale.json()).toMatchObject({ ok: true, status: 'sold', price: 4.5 });

    // The source's Leads table shows it sold; its row opens the lead.
    await page.reload();
    const leadRow = tableRows(section(page, 'Leads')).filter({ hasText: leadName });
    await leadRow.getByText('Sold', { exact: true }).waitFor();
    expect(await leadRow.textContent()).toContain('$4.50');

    // Lock and unlock the user, with the spec's toasts.
    await userRow.getByRole('button', { name: 'Lock' }).click();
    await toast(page, `Successfully locked ${userEmail}.`).waitFor();
    await userRow.getByText(/^On hold/).waitFor();
    await userRow.getByRole('button', { name: 'Unlock' }).click();
    await toast(page, `Successfully unlocked ${userEmail}.`).waitFor();
    await userRow.getByText('Active', { exact: true }).waitFor();

    // Hold the source: the key is refused at once; Unhold admits it again.
    await page.getByRole('button', { name: 'Hold', exact: true }).first().click();
    const hold = page.getByRole('dialog', { name: 'Hold source' });
    await hold.getByRole('textbox', { name: 'Reason' }).fill('Checking traffic quality');
    await hold.getByRole('button', { name: 'Hold' }).click();
    await toast(page, `${name} is on hold.`).waitFor();
    await page.getByText('On Hold', { exact: true }).first().waitFor();
    const refused = await page.request.post('/api/ping', { headers: auth, data: { service: 'solar', zip: '85004' } });
    expect(await refused.json()).toMatchObject({ ok: false, reason: 'held' });

    await page.getByRole('button', { name: 'Unhold' }).click();
    await page.getByRole('dialog', { name: 'Unhold source' }).getByRole('button', { name: 'Unhold' }).click();
    await toast(page, `${name} is no longer on hold.`).waitFor();
    const again = await page.request.post('/api/ping', { headers: auth, data: { service: 'solar', zip: '85004' } });
    expect(await again.json()).toMatchObject({ ok: true });

    // And the Sources list finds it by name.
    await page.goto(`/sources?name=${encodeURIComponent(name)}`);
    const row = tableRows(page).filter({ hasText: name });
    await row.waitFor();
    await row.click();
    await expectPath(page, `/source/${sourceId}`);
    await context.close();
  });
});

describe('the Source form', () => {
  it('edits the channels and saves only the change', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin, { clipboard: true });
    const name = `Canyon Clicks ${unique()}`;
    const created = await page.request.post('/api/source', {
      data: { name, email: `hello-${unique()}@canyon.example`, phone: '6025550111', channels: [] },
    });
    expect(created.status()).toBe(201);
    const { _id } = (await created.json()) as { _id: string };
    const bodies = recordBodies(page, 'PUT', new RegExp(`/api/source/${_id}$`));

    await page.goto(`/source/${_id}`);
    await page.getByRole('heading', { name }).waitFor();
    await page.getByText('No channels.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Add Channel' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Channel name is required', { exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'Channel name' }).fill('native');
    await page.getByRole('textbox', { name: 'Max cost' }).fill('7.25');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, `${name} updated successfully`).waitFor();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(bodies).toEqual([{ channels: [{ name: 'native', max_cost: 7.25 }] }]);

    await page.reload();
    await expect.poll(() => page.getByRole('textbox', { name: 'Channel name' }).inputValue()).toBe('native');
    await context.close();
  });
});
