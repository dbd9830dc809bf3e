import { describe, expect, it } from 'vitest';
import { createBuyer, createCampaign } from '../../test/factories';
import { useTestApp } from '../../test/harness';
import { type ExplanationRecord, packExplanation, unpackExplanation } from './explanation';

const t = useTestApp();

describe('a stored explanation', () => {
  it('is compact, and reads back as the records it was made from, with names and buyers', async () => {
    const buyer = await createBuyer(t);
    const [won, lost, paused, far1, far2, zipOnly] = await Promise.all(
      ['won', 'lost', 'paused', 'far1', 'far2', 'zipOnly'].map(() => createCampaign(t, buyer._id)),
    );
    const { campaigns } = t.deps.engine.snapshot();
    const name = (id: string | undefined) => campaigns.find((c) => c.id === id)?.name ?? '';
    const record = (id: string | undefined, rest: Partial<ExplanationRecord>): ExplanationRecord => ({
      campaign: id as string,
      buyer: buyer._id,
      name: name(id),
      eligible: false,
      ...rest,
    });
    const records = [
      record(won, { eligible: true, price: 45, won: true }),
      record(lost, { eligible: true, price: 30.5, won: false }),
      record(paused, { rule: 'status', detail: 'campaign is paused' }),
      record(far1, { rule: 'location', detail: 'state TX (ZIP 75201) not in campaign states' }),
      record(zipOnly, { rule: 'location', detail: 'ZIP 75201 not in campaign ZIPs' }),
      record(far2, { rule: 'location', detail: 'state TX (ZIP 75201) not in campaign states' }),
    ];
    const packed = packExplanation(records);
    expect(packed).toEqual([
      [won, 45, 1],
      [lost, 30.5, 0],
      [paused, 'status', 'campaign is paused'],
      [[far1, far2], 'location', 'state TX (ZIP 75201) not in campaign states'],
      [[zipOnly], 'location', 'ZIP 75201 not in campaign ZIPs'],
    ]);
    expect(JSON.stringify(packed).length).toBeLessThan(JSON.stringify(records).length / 2);
    const back = await unpackExplanation(t.database.db, JSON.parse(JSON.stringify(packed)));
    expect(back).toHaveLength(records.length);
    // The buyer's name comes back with the campaign's, for the lead detail's Decision Explained.
    expect(back).toEqual(expect.arrayContaining(records.map((r) => ({ ...r, buyer_name: buyer.name }))));
  });

  it('passes explanations stored as full records through', async () => {
    const old = [{ campaign: 'cmp_x', buyer: 'buy_y', name: 'Old', eligible: false, rule: 'time', detail: 'closed' }];
    expect(await unpackExplanation(t.database.db, old)).toEqual(old);
    expect(await unpackExplanation(t.database.db, null)).toEqual([]);
  });
});
