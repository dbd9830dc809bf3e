import type { IndexedCampaign } from '../src/distribution/types';

/** A live exclusive solar campaign as the engine's index holds it, bought in New York at any hour; override any field. */
export const indexedCampaign = (overrides: Partial<IndexedCampaign> = {}): IndexedCampaign => ({
  id: 'cmp_1',
  buyerId: 'buy_1',
  name: 'Solar',
  fixedId: 'SOLAR',
  status: 'live',
  priceCents: 5000,
  shared: false,
  sharedPriceCents: null,
  services: new Set(['solar']),
  location: 'state',
  states: new Set(['NY']),
  zips: new Set(),
  caps: {},
  time: null,
  sourceFilters: [],
  lastSoldAt: 0,
  ...overrides,
});
