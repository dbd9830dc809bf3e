import { createHash } from 'node:crypto';
import {
  type BuyerCreate,
  buyerListQuery,
  type CampaignTime,
  campaignCreateSchema,
  campaignUpdateSchema,
  type FieldFilter,
  type ServiceFieldInput,
  serviceFieldListSchema,
  sourceCreateSchema,
  webhookCreateSchema,
} from '@leadex/domain';
import { hashPassword } from 'better-auth/crypto';
import type { Db } from '../db/client';
import { services } from '../db/schema';
import type { Engine } from '../distribution/engine';
import { type Clock, FixedClock } from '../lib/clock';
import type { Viewer } from '../lib/scope';
import type { BillsService } from '../modules/bills/bills.service';
import type { BuyersService } from '../modules/buyers/buyers.service';
import type { CampaignsService } from '../modules/campaigns/campaigns.service';
import type { WebhooksService } from '../modules/deliveries/custom/webhooks.service';
import type { LeadsService } from '../modules/leads/leads.service';
import type { ServiceFieldsService } from '../modules/service-fields/service-fields.service';
import { seededDraw, simulatedFields } from '../modules/sim/simulated-fields';
import { leadSchema, pingSchema, postSchema } from '../modules/source-api/source-api.schema';
import type { SourceApiService } from '../modules/source-api/source-api.service';
import type { SourcesService } from '../modules/sources/sources.service';
import type { UsersService } from '../modules/users/users.service';
import type { ZipsService } from '../modules/zips/zips.service';

/** The services leads are sold for, offered when the exchange starts empty. */
export const DEFAULT_SERVICES: { name: string; label: string }[] = [
  { name: 'roofing', label: 'Roofing' },
  { name: 'solar', label: 'Solar' },
  { name: 'hvac', label: 'HVAC' },
  { name: 'windows', label: 'Windows' },
  { name: 'plumbing', label: 'Plumbing' },
  { name: 'siding', label: 'Siding' },
  { name: 'gutters', label: 'Gutters' },
  { name: 'bath_remodel', label: 'Bath Remodel' },
  { name: 'kitchen_remodel', label: 'Kitchen Remodel' },
  { name: 'pest_control', label: 'Pest Control' },
  { name: 'auto_insurance', label: 'Auto Insurance' },
];

/** Reference data every exchange needs; idempotent, so it runs on every start. */
export async function seedReferenceData({ db }: { db: Db }): Promise<void> {
  await db.insert(services).values(DEFAULT_SERVICES).onConflictDoNothing();
}

/** Sign-ins of the demo exchange, printed at start. */
export const DEMO_PASSWORD = { buyer: 'demo-buyer-1', source: 'demo-source-1' } as const;

const EASTERN_BUSINESS_HOURS: CampaignTime = {
  zone: 'America/New_York',
  weekday: { start: 7, end: 19 },
  weekend: { start: 9, end: 17 },
};

interface DemoCampaign {
  name: string;
  fixedId: string;
  price: number;
  shared?: number;
  services: string[];
  location: 'state' | 'zip' | 'zipset';
  states?: string[];
  zips?: string[];
  zipset?: string;
  max?: { hourly?: number; daily?: number; weekly?: number; monthly?: number };
  time?: CampaignTime;
  status: 'live' | 'draft' | 'pause';
  /** Rules on the services' own fields (issue 33 item 3), money in dollars as the form sends them. */
  fieldFilters?: FieldFilter[];
}

const DEMO_ZIPSETS: Record<string, { description: string; zips: string[] }> = {
  'Dallas Metro': {
    description: 'Dallas and its inner suburbs',
    zips: [
      '75201',
      '75202',
      '75204',
      '75205',
      '75206',
      '75214',
      '75219',
      '75225',
      '75230',
      '75240',
      '75080',
      '75081',
      '75082',
      '75093',
      '75024',
      '75025',
    ],
  },
  'NYC Core': {
    description: 'Manhattan below 60th Street and north Brooklyn',
    zips: [
      '10001',
      '10002',
      '10003',
      '10009',
      '10010',
      '10011',
      '10012',
      '10013',
      '10014',
      '10016',
      '10017',
      '10018',
      '11201',
      '11211',
      '11215',
      '11222',
    ],
  },
};

const DEMO_BUYERS: { buyer: BuyerCreate; campaigns: DemoCampaign[] }[] = [
  {
    buyer: {
      username: 'summit-roofing',
      name: 'Summit Roofing Co.',
      email: 'leads@summitroofing.example',
      phone: '(214) 555-0142',
      address: '2100 Ross Ave',
      city: 'Dallas',
      state: 'TX',
      zip: '75201',
      notes: 'Prefers storm-season volume in north Texas.',
      tags: ['roofing', 'enterprise'],
      notify: { email: ['dispatch@summitroofing.example'], sms: [], broadcast_webhooks: [] },
      bill: { pay: 'auto', prepay: 0, period: 'weekly', grace: 3, threshold: 5000 },
      autoApproveReturns: 0.05,
      showSource: false,
    },
    campaigns: [
      {
        name: 'Roofing - Texas & Oklahoma',
        fixedId: 'SUMMIT-TXOK',
        price: 45,
        services: ['roofing', 'gutters'],
        location: 'state',
        states: ['TX', 'OK'],
        max: { daily: 40, monthly: 800 },
        status: 'live',
        // Summit does not work on flat or slate roofs. A rule a lead without the field passes (a source
        // that leaves it out, as the e2e flows do), and one the simulator's roofs fail now and then.
        fieldFilters: [{ field: 'roof_type', op: 'none_of', values: ['Flat', 'Slate'] }],
      },
      {
        name: 'Roofing - Dallas Metro shared',
        fixedId: 'SUMMIT-DFW',
        price: 38,
        shared: 18,
        services: ['roofing'],
        location: 'zipset',
        zipset: 'Dallas Metro',
        max: { hourly: 5, daily: 30 },
        time: EASTERN_BUSINESS_HOURS,
        status: 'live',
      },
    ],
  },
  {
    buyer: {
      username: 'brightpath-solar',
      name: 'BrightPath Solar',
      email: 'ops@brightpathsolar.example',
      phone: '(602) 555-0177',
      address: '40 N Central Ave',
      city: 'Phoenix',
      state: 'AZ',
      zip: '85004',
      tags: ['solar'],
      notify: { email: ['leads@brightpathsolar.example'], sms: ['(602) 555-0178'], broadcast_webhooks: [] },
      bill: { pay: 'invoice', prepay: 0, period: 'monthly', grace: 7, threshold: 0 },
      autoApproveReturns: 0,
      showSource: false,
    },
    campaigns: [
      {
        name: 'Solar - Southwest',
        fixedId: 'BRIGHT-SW',
        price: 62,
        shared: 28,
        services: ['solar'],
        location: 'state',
        states: ['AZ', 'CA', 'NV', 'NM'],
        max: { daily: 60, monthly: 1000 },
        status: 'live',
        // No heavily shaded roof, no poor credit; leads that leave the fields out still qualify.
        fieldFilters: [
          { field: 'roof_shade', op: 'not_equals', value: 'Heavy' },
          { field: 'credit_rating', op: 'none_of', values: ['Poor'] },
        ],
      },
      {
        name: 'Solar - Phoenix ZIPs',
        fixedId: 'BRIGHT-PHX',
        price: 70,
        services: ['solar', 'windows'],
        location: 'zip',
        zips: ['85004', '85006', '85008', '85012', '85014', '85016', '85018', '85020'],
        max: { weekly: 50 },
        status: 'draft',
        // A rule a lead without the bill fails: on a draft, since the e2e flows and a first look at the
        // demo send solar leads without the service's fields.
        fieldFilters: [{ field: 'electric_bill', op: 'between', min: 150, max: 600 }],
      },
    ],
  },
  {
    buyer: {
      username: 'comfort-air',
      name: 'Comfort Air HVAC',
      email: 'sales@comfortair.example',
      phone: '(718) 555-0109',
      address: '125 Court St',
      city: 'Brooklyn',
      state: 'NY',
      zip: '11201',
      tags: ['hvac', 'prepay'],
      notify: { email: ['sales@comfortair.example'], sms: [], broadcast_webhooks: [] },
      bill: { pay: 'prepay', prepay: 2500, period: 'monthly', grace: 3, threshold: 0 },
      autoApproveReturns: 0.1,
      showSource: false,
    },
    campaigns: [
      {
        name: 'HVAC - NYC Core',
        fixedId: 'COMFORT-NYC',
        price: 55,
        services: ['hvac', 'plumbing'],
        location: 'zipset',
        zipset: 'NYC Core',
        max: { daily: 20, monthly: 400 },
        time: EASTERN_BUSINESS_HOURS,
        status: 'live',
      },
      {
        name: 'HVAC - Florida',
        fixedId: 'COMFORT-FL',
        price: 40,
        services: ['hvac'],
        location: 'state',
        states: ['FL'],
        max: { daily: 15 },
        status: 'pause',
      },
    ],
  },
];

const DEMO_SOURCES = [
  {
    username: 'apex-leads',
    name: 'Apex Lead Partners',
    contactName: 'Dana Whitfield',
    email: 'partners@apexleads.example',
    phone: '5125550190',
    city: 'Austin',
    state: 'TX',
    zip: '78701',
    maxCost: 18,
    canPostLead: true,
    channels: [
      { name: 'facebook', maxCost: 15 },
      { name: 'google', maxCost: 20 },
    ],
    welcome: false,
  },
  {
    username: 'homequote',
    name: 'HomeQuote Network',
    contactName: 'Priya Raman',
    email: 'supply@homequote.example',
    phone: '3035550123',
    city: 'Denver',
    state: 'CO',
    zip: '80202',
    maxCost: 22,
    canPostLead: false,
    channels: [{ name: 'organic', maxCost: 22 }],
    welcome: true,
  },
];

/** One line per demo sign-in, for the start banner. */
export function demoSignIns(): string[] {
  return [
    ...DEMO_BUYERS.map(({ buyer }) => `  buyer:  ${buyer.username} / ${DEMO_PASSWORD.buyer}   (${buyer.name})`),
    ...DEMO_SOURCES.map((s) => `  source: ${s.username} / ${DEMO_PASSWORD.source}   (${s.name})`),
  ];
}

/**
 * What the demo is seeded with: the app's services and clock, as deps.ts builds them. Its leads are
 * sold at their own past times, by the engine and source API deps.ts builds on a clock the demo moves.
 */
export interface DemoDeps {
  clock: Clock;
  /** deps.ts's engine and source API on another clock (AppDeps['exchangeOn']). */
  exchangeOn: (clock: Clock) => {
    /** The engine's service fields are what the demo's sources fill. */
    engine: Pick<Engine, 'start' | 'stop' | 'snapshot'>;
    sourceApi: Pick<SourceApiService, 'lead' | 'ping' | 'post'>;
  };
  services: {
    buyers: Pick<BuyersService, 'create' | 'list'>;
    users: Pick<UsersService, 'findByUsername' | 'givePassword'>;
    bills: Pick<BillsService, 'run'>;
    zips: Pick<ZipsService, 'create'>;
    campaigns: Pick<CampaignsService, 'create' | 'update'>;
    webhooks: Pick<WebhooksService, 'create'>;
    sources: Pick<SourcesService, 'create' | 'newApiKey' | 'addUser'>;
    leads: Pick<LeadsService, 'markEveryMatchDelivered'>;
    serviceFields: Pick<ServiceFieldsService, 'replace'>;
  };
}

/** The demo is written as the exchange's admin would write it, recorded as the system's. */
const DEMO_WRITER: Viewer = { userId: 'system', role: 'admin', roleId: null };

/**
 * A realistic demo exchange for `npm start` on an empty database: three buyers with users and
 * campaigns (state, ZIP and region locations), two sources with channels and API keys, all through
 * the services. Leads are not written here: they come through the engine.
 */
export async function seedDemo(deps: DemoDeps): Promise<boolean> {
  const { services: svc } = deps;
  if ((await svc.buyers.list(buyerListQuery.parse({ pageSize: 1 }))).total > 0) return false;

  const buyerPassword = await hashPassword(DEMO_PASSWORD.buyer);
  const sourcePassword = await hashPassword(DEMO_PASSWORD.source);

  // The demo services' own fields (issue 33 item 6), before any lead carries them.
  for (const [service, fields] of Object.entries(DEMO_SERVICE_FIELDS))
    await svc.serviceFields.replace(service, serviceFieldListSchema.parse({ fields }));

  const zipsetIds: Record<string, string> = {};
  for (const [name, set] of Object.entries(DEMO_ZIPSETS))
    zipsetIds[name] = (await svc.zips.create(DEMO_WRITER, { name, ...set }))._id;

  for (const [index, demo] of DEMO_BUYERS.entries()) {
    const buyer = await svc.buyers.create(demo.buyer);
    // One custom delivery to look at, left a draft: the demo never sends leads out of the machine.
    if (index === 0) await svc.webhooks.create(DEMO_WRITER, demoDelivery(buyer._id, `${demo.buyer.name} CRM`));
    const primary = await svc.users.findByUsername(buyer.username);
    if (primary) await svc.users.givePassword(primary.id, buyerPassword);
    for (const c of demo.campaigns) {
      const campaign = await svc.campaigns.create(DEMO_WRITER, campaignInput(buyer._id, c, zipsetIds));
      if (c.status !== 'draft')
        await svc.campaigns.update(
          DEMO_WRITER,
          campaign._id,
          campaignUpdateSchema.parse({ status: { [c.status]: true, reason: 'Demo data' } }),
        );
    }
  }

  const keys: { key: string; direct: boolean }[] = [];
  for (const s of DEMO_SOURCES) {
    const { username, contactName, maxCost, channels, welcome, ...fields } = s;
    const source = await svc.sources.create(
      sourceCreateSchema.parse({
        ...fields,
        contactName,
        max_cost: maxCost,
        channels: channels.map((c) => ({ name: c.name, max_cost: c.maxCost })),
      }),
    );
    const key = await svc.sources.newApiKey(source._id, { name: 'Production', canPostLead: s.canPostLead });
    keys.push({ key: key.key, direct: s.canPostLead });
    const user = await svc.sources.addUser(source._id, { name: contactName, email: s.email, username });
    await svc.users.givePassword(user._id, sourcePassword, welcome);
  }
  await seedDemoLeads(deps, keys);
  return true;
}

/**
 * The demo services' own fields (issue 33 item 6): what a solar, roofing or auto insurance buyer asks
 * for. Optional, so a source that does not send them still sells; sent at the ping where a buyer's filter
 * should decide before the post. The demo campaigns that filter on them are in DEMO_BUYERS (issue 33 item 3).
 */
export const DEMO_SERVICE_FIELDS: Record<string, ServiceFieldInput[]> = {
  solar: [
    {
      key: 'electric_bill',
      label: 'Monthly electric bill',
      type: 'money',
      stage: 'ping',
      aliases: ['monthly_bill', 'electric_bill_amount'],
      help: 'The average monthly electric bill, in dollars',
    },
    {
      key: 'roof_shade',
      label: 'Roof shade',
      type: 'choice',
      options: ['None', 'Partial', 'Heavy'],
      stage: 'ping',
      aliases: ['shade'],
      help: 'How much of the roof is shaded during the day',
    },
    {
      key: 'credit_rating',
      label: 'Credit rating',
      type: 'choice',
      options: ['Excellent', 'Good', 'Fair', 'Poor'],
      stage: 'ping',
      aliases: ['credit'],
      help: 'As the consumer rated it',
    },
  ],
  roofing: [
    {
      key: 'roof_type',
      label: 'Roof type',
      type: 'choice',
      options: ['Asphalt shingle', 'Metal', 'Tile', 'Flat', 'Wood shake', 'Slate'],
      stage: 'ping',
      aliases: ['roofing_material'],
    },
    { key: 'roof_age', label: 'Age of roof', type: 'number', stage: 'ping', help: 'In years' },
  ],
  auto_insurance: [
    { key: 'age', label: 'Driver age', type: 'number', stage: 'ping', aliases: ['driver_age'] },
    { key: 'current_insurer', label: 'Current insurer', type: 'text', stage: 'ping', aliases: ['insurance_company'] },
    { key: 'vehicles', label: 'Vehicles', type: 'number', stage: 'ping', aliases: ['vehicle_count'] },
  ],
};

/** The demo's one custom delivery, as its form would send it. */
function demoDelivery(buyerId: string, name: string) {
  return webhookCreateSchema.parse({
    buyer: buyerId,
    name,
    url: 'https://crm.example.com/api/leads',
    method: 'POST',
    accept: [{ field: 'status', value: 'ok' }],
    map: [
      { field: 'first_name', value: 'FirstName' },
      { field: 'last_name', value: 'LastName' },
      { field: 'phone', value: 'Phone' },
      { field: 'email', value: 'Email' },
      { field: 'zip', value: 'Zip' },
      { field: 'service', value: 'Product' },
    ],
    static: [{ field: 'Vendor', value: 'leadex' }],
    return_id: 'lead_id',
    status: 'draft',
    tags: ['crm'],
  });
}

/** A demo campaign as the Campaign form would send it (it is created a draft, then set to its status). */
function campaignInput(buyerId: string, c: DemoCampaign, zipsetIds: Record<string, string>) {
  return campaignCreateSchema.parse({
    buyer: buyerId,
    name: c.name,
    fixed_id: c.fixedId,
    price: c.price,
    exclusive: c.shared === undefined ? 1 : 0,
    shared_price: c.shared,
    services: c.services,
    location: c.location,
    state: c.states ?? [],
    zips: c.zips ?? [],
    zipset: c.zipset ? zipsetIds[c.zipset] : undefined,
    max: c.max ?? {},
    time: c.time,
    field_filters: c.fieldFilters ?? [],
  });
}

/** Service and ZIP pairs the demo sources send: most fit a campaign, some show up as Buyer Gaps. */
const DEMO_TRAFFIC: [service: string, zip: string][] = [
  ['roofing', '75201'],
  ['roofing', '75206'],
  ['roofing', '76102'],
  ['roofing', '77002'],
  ['gutters', '73102'],
  ['roofing', '75080'],
  ['solar', '85004'],
  ['solar', '90012'],
  ['solar', '89101'],
  ['solar', '87101'],
  ['hvac', '10001'],
  ['plumbing', '10011'],
  ['hvac', '11201'],
  ['windows', '33130'],
  ['roofing', '98101'],
  ['solar', '10001'],
  ['hvac', '60601'],
];

const DEMO_NAMES = [
  'Avery Nguyen',
  'Jordan Garcia',
  'Morgan Smith',
  'Riley Johnson',
  'Casey Patel',
  'Taylor Brown',
  'Jamie Lopez',
  'Quinn Kim',
];

/**
 * Demo leads over the last 60 days, posted through the real engine with a clock moved to each
 * lead's time, so the demo has sold and unsold leads, cap counts and Buyer Gaps like a live exchange.
 */
async function seedDemoLeads(deps: DemoDeps, keys: { key: string; direct: boolean }[], count = 300) {
  const clock = new FixedClock(deps.clock.now());
  const { engine, sourceApi: api } = deps.exchangeOn(clock);
  await engine.start();
  const draw = seededDraw(33);
  try {
    const end = deps.clock.now().getTime();
    const today = end - (end % 86_400_000);
    // Spread evenly back over 60 days, in US business hours (15:00 to 21:00 UTC), oldest first.
    const times = Array.from({ length: count }, (_, i) => {
      const daysAgo = Math.floor(((count - i) * 60) / count);
      return new Date(today - daysAgo * 86_400_000 + 15 * 3_600_000 + ((i * 7_919_000) % (6 * 3_600_000)));
    });
    let day = -1;
    for (const [i, at] of times.entries()) {
      if (at.getTime() > end) continue;
      clock.set(at);
      // The billing run of each day, as the hourly job would have run it: the demo's bills open, roll and close.
      if (Math.floor(at.getTime() / 86_400_000) !== day) {
        day = Math.floor(at.getTime() / 86_400_000);
        await deps.services.bills.run({ now: at });
      }
      const source = keys[i % keys.length] as (typeof keys)[number];
      const [service, zip] = DEMO_TRAFFIC[(i * 7) % DEMO_TRAFFIC.length] as [string, string];
      const contact = {
        name: DEMO_NAMES[i % DEMO_NAMES.length],
        phone: `${214 + (i % 5) * 100}${String(7_340_000 + i).slice(-7)}`,
        email: `demo.lead.${i}@example.com`,
        tcpa_consent: i % 9 !== 0,
        // A certificate id of TrustedForm's shape (40 hex), so the demo's certificates read as valid.
        trusted_form: i % 3 === 0 ? `https://cert.trustedform.com/${sha1Hex(`demo${i}`)}` : undefined,
        homeowner: i % 4 !== 0,
        sub_id: `sub-${i % 6}`,
        // The consumer's, as a form would send them; the request's own address is the seed's (meta).
        ip: `198.51.100.${(i % 250) + 1}`,
        user_agent: 'Mozilla/5.0 (demo consumer)',
      };
      const meta = { ip: '203.0.113.10', userAgent: 'Leadex demo seed' };
      // The service's own fields, as a source fills them: its ping fields at the ping, the rest at the post.
      const fields = engine.snapshot().fieldsOf(service);
      if (source.direct && i % 2 === 0) {
        await api.lead(
          leadSchema.parse({ service, zip, ...contact }),
          source.key,
          meta,
          simulatedFields(fields, 'lead', draw),
        );
      } else {
        const ping = await api.ping(
          pingSchema.parse({ service, zip }),
          source.key,
          simulatedFields(fields, 'ping', draw),
        );
        if (ping.body.ok)
          await api.post(
            postSchema.parse({ ping_id: ping.body.ping_id, ...contact }),
            source.key,
            meta,
            simulatedFields(fields, 'post', draw),
          );
      }
    }
    // The demo's history is backdated: its leads were delivered long ago, not mailed again at start.
    await deps.services.leads.markEveryMatchDelivered();
    await deps.services.bills.run({ now: new Date(end) });
  } finally {
    await engine.stop();
  }
}

/** A demo certificate id: 40 hex characters, as TrustedForm's web ids are. */
function sha1Hex(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}
