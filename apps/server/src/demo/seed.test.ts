import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness';
import { apiKeys, campaigns, leadMatches, leads, sourceChannels, sources, webhooks, zipsets } from '../db/schema';
import { createApiKeyVault } from '../lib/api-keys';
import { DEMO_PASSWORD, seedDemo } from './seed';

const t = useTestApp();

describe('demo seed', () => {
  it('seeds buyers with campaigns in every location type, and sources with channels and keys', async () => {
    expect(await seedDemo(t.deps)).toBe(true);
    const db = t.database.db;
    const rows = await db.select().from(campaigns);
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((c) => c.location))).toEqual(new Set(['state', 'zip', 'zipset']));
    expect(rows.filter((c) => c.status === 'live').length).toBeGreaterThanOrEqual(3);
    expect(await db.select().from(zipsets)).toHaveLength(2);
    // A custom delivery to look at, never sent: a draft.
    expect((await db.select().from(webhooks)).map((w) => [w.status, w.map.length > 0])).toEqual([['draft', true]]);
    expect(await db.select().from(sources)).toHaveLength(2);
    expect((await db.select().from(sourceChannels)).length).toBeGreaterThanOrEqual(2);
    const vault = createApiKeyVault(t.deps.config.LEADEX_SECRET);
    for (const key of await db.select().from(apiKeys))
      expect(vault.hash(vault.reveal(key.keyEncrypted))).toBe(key.keyHash);
  }, 120_000); // 300 leads sold through the engine, a day's billing run each: a minute on a busy machine.

  it('gives every demo role a working sign-in', async () => {
    const claims = async (login: string, password: string) =>
      (await t.request({ method: 'GET', url: '/api/session', as: await t.signIn(login, password) })).json();
    expect(await claims('summit-roofing', DEMO_PASSWORD.buyer)).toMatchObject({ role: 'buyer' });
    expect(await claims('apex-leads', DEMO_PASSWORD.source)).toMatchObject({
      role: 'source',
      canPostLead: true,
      welcome: false,
    });
    expect(await claims('homequote', DEMO_PASSWORD.source)).toMatchObject({ role: 'source', welcome: true });
  });

  it('does nothing on a database that already has buyers', async () => {
    expect(await seedDemo(t.deps)).toBe(false);
    expect(await t.database.db.select().from(campaigns)).toHaveLength(6);
  });
});

describe('demo leads', () => {
  it('posts a few hundred leads over the last 60 days through the engine, sold and unsold', async () => {
    const rows = await t.database.db.select().from(leads);
    expect(rows.length).toBeGreaterThan(150);
    const sold = rows.filter((l) => l.priceCents > 0);
    expect(sold.length).toBeGreaterThan(50);
    expect(rows.length - sold.length).toBeGreaterThan(10);
    const oldest = Math.min(...rows.map((l) => l.createdAt.getTime()));
    expect(t.clock.now().getTime() - oldest).toBeGreaterThan(50 * 86_400_000);
    expect((await t.database.db.select().from(leadMatches)).length).toBeGreaterThanOrEqual(sold.length);
  });

  it('fills the solar and roofing leads’ own fields as sources would (issue 33 item 6)', async () => {
    const rows = await t.database.db.select().from(leads);
    const solar = rows.filter((l) => l.service === 'solar');
    const roofing = rows.filter((l) => l.service === 'roofing');
    expect(solar.filter((l) => typeof l.fields.electric_bill === 'number').length).toBeGreaterThan(solar.length / 2);
    expect(
      solar.every(
        (l) =>
          l.fields.roof_shade === undefined || ['None', 'Partial', 'Heavy'].includes(l.fields.roof_shade as string),
      ),
    ).toBe(true);
    expect(roofing.filter((l) => typeof l.fields.roof_age === 'number').length).toBeGreaterThan(roofing.length / 2);
    expect(rows.filter((l) => l.service === 'hvac').every((l) => Object.keys(l.fields).length === 0)).toBe(true);
    expect(
      rows.every((l) => !l.fieldFlags?.some((f) => ['electric_bill', 'roof_shade', 'roof_age'].includes(f.field))),
    ).toBe(true);
  });

  it('live campaigns filter on the demo fields: leads that fail the rules never reach them, some that pass do', async () => {
    const db = t.database.db;
    const byFixedId = new Map((await db.select().from(campaigns)).map((c) => [c.fixedId, c]));
    const matchesOf = new Map<string, Set<string>>();
    for (const m of await db.select().from(leadMatches))
      matchesOf.set(m.leadId, (matchesOf.get(m.leadId) ?? new Set()).add(m.campaignId));
    const rows = await db.select().from(leads);
    const check = (
      fixedId: string,
      service: string,
      states: string[],
      fails: (f: Record<string, unknown>) => boolean,
      label: string,
    ) => {
      const campaign = byFixedId.get(fixedId);
      expect(campaign?.status, fixedId).toBe('live');
      expect(campaign?.fieldFilters.length, fixedId).toBeGreaterThan(0);
      const inReach = rows.filter((l) => l.service === service && states.includes(l.state ?? ''));
      const bought = (l: (typeof rows)[number]) => matchesOf.get(l.id)?.has(campaign?.id ?? '') ?? false;
      const failing = inReach.filter((l) => fails(l.fields));
      const passing = inReach.filter((l) => !fails(l.fields));
      // The simulator's leads sometimes fail the rules (never sold to the campaign) and sometimes pass.
      expect(failing.length, `${fixedId}: leads failing its rules`).toBeGreaterThan(0);
      expect(failing.filter(bought), `${fixedId}: sold a lead failing its rules`).toEqual([]);
      expect(passing.filter(bought).length, `${fixedId}: leads passing its rules it bought`).toBeGreaterThan(0);
      // The explanation of a lead the campaign did not get names the rule that left it out.
      // (`[campaign id, 'filter', 'Filter: Roof type none of Flat, Slate (lead: Flat)']`).
      const named = failing.filter((l) =>
        (l.explanation as unknown[][] | null)?.some(
          ([id, rule, words]) =>
            id === campaign?.id && rule === 'filter' && String(words).startsWith(`Filter: ${label}`),
        ),
      );
      expect(named.length, `${fixedId}: explanations naming the rule`).toBe(failing.length);
    };
    const flatOrSlate = (f: Record<string, unknown>) => ['Flat', 'Slate'].includes(f.roof_type as string);
    check('SUMMIT-TXOK', 'roofing', ['TX', 'OK'], flatOrSlate, 'Roof type');
    const shadedOrPoor = (f: Record<string, unknown>) => f.roof_shade === 'Heavy' || f.credit_rating === 'Poor';
    check('BRIGHT-SW', 'solar', ['AZ', 'CA', 'NV', 'NM'], shadedOrPoor, '');
  });
});
