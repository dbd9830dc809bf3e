import type { TagKind } from '@leadex/domain';

/** An entity's list key (`all`, which a mutation invalidates) and the key of one record under it. */
function entityKeys<const TEntity extends string>(entity: TEntity) {
  return {
    all: [entity] as const,
    detail: (id: string) => [entity, 'detail', id] as const,
  };
}

/**
 * Every TanStack Query key in one place. An entity's keys share its first element, so a mutation
 * invalidates the lists and the details of that entity with one call.
 */
export const queryKeys = {
  session: ['session'] as const,
  /** GET /api/setting/zone: the exchange's time zone (the admin's Settings). */
  exchangeZone: ['setting', 'zone'] as const,
  buyers: entityKeys('buyers'),
  /** Bills; `detail` is GET /api/bill/{id} (or `next:{buyerId}`, the buyer's accruing bill). */
  bills: {
    ...entityKeys('bills'),
    /** GET /api/bill/buyer/{buyerId}: one buyer's bills. */
    ofBuyer: (buyerId: string) => ['bills', 'buyer', buyerId] as const,
  },
  sources: entityKeys('sources'),
  campaigns: {
    ...entityKeys('campaigns'),
    /** The services the viewer's campaigns buy (the list's service filter). */
    services: ['campaigns', 'services'] as const,
  },
  /** Custom deliveries (GET /api/webhook…). */
  webhooks: {
    ...entityKeys('webhooks'),
    /** GET /api/webhook/{id}/copy: an unsaved copy. */
    copy: (id: string) => ['webhooks', 'copy', id] as const,
    /** GET /api/webhook/new: the blank delivery and the mapping field list. */
    template: ['webhooks', 'template'] as const,
  },
  /** GET /api/zip/…: ZIP suggestions and searches (reference data: they never change). */
  zips: {
    suggestions: (q: string) => ['zips', 'suggestions', q] as const,
    search: (params: Record<string, string | number>) => ['zips', 'search', params] as const,
  },
  /** GET /api/zipset: the regions; `list(buyer)` narrows an admin's list to what one buyer may use. */
  zipsets: {
    all: ['zipsets'] as const,
    list: (buyer?: string) => ['zipsets', 'list', buyer ?? ''] as const,
  },
  /** The leads lists (GET /api/lead/date/…) and details (GET /api/lead/{id}). */
  leads: {
    ...entityKeys('leads'),
    /** GET /api/lead/values/{field}: the services or ZIPs present in a range. */
    values: (field: string, range: object) => ['leads', 'values', field, range] as const,
  },
  /** GET /api/message/admin: the admin's Messages screen. */
  messages: {
    all: ['messages'] as const,
  },
  /** GET /api/stats/: the admin's dashboard. */
  stats: ['stats'] as const,
  /** GET /api/pingbids: the admin's Pings Not Posted screen. */
  pingBids: {
    all: ['pingBids'] as const,
  },
  /** GET /api/compliance/…: the access log, the erasure records and the retention (issue 35). */
  compliance: {
    all: ['compliance'] as const,
    accessLog: ['compliance', 'accessLog'] as const,
    erasures: ['compliance', 'erasures'] as const,
    retention: ['compliance', 'retention'] as const,
    deletionLists: ['compliance', 'deletionLists'] as const,
    deletionListStatus: ['compliance', 'deletionLists', 'status'] as const,
  },
  /** GET /api/compliance/services and /evidence-retention: the Settings screen's consent section (issue 34). */
  consent: {
    services: ['consent', 'services'] as const,
    evidenceRetention: ['consent', 'evidenceRetention'] as const,
  },
  /** GET /api/lead/returns: the admin's Returns screen. */
  returns: {
    all: ['returns'] as const,
  },
  /** GET /api/setting/allForCat/integration: the Settings screen's integrations. */
  integrations: ['integrations'] as const,
  /** GET /api/ad-spend…: the internal sources' daily ad spend and the sources it may be recorded for. */
  adSpend: {
    all: ['adSpend'] as const,
    list: (days: number) => ['adSpend', 'list', days] as const,
    sources: ['adSpend', 'sources'] as const,
  },
  /** GET /api/services: every service name. */
  services: ['services'] as const,
  /** GET /api/services/labels: each service's key and label. */
  serviceLabels: ['services', 'labels'] as const,
  /** GET /api/services/fields: every service's own fields (issue 33). */
  serviceFields: ['services', 'fields'] as const,
  tags: (kind: TagKind) => ['tags', kind] as const,
};
