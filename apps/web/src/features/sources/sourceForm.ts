import { type Source, sourceCreateSchema, sourceUpdateSchema } from '@leadex/domain';
import type { CreateOrUpdateFormDefinition } from '../../components/RecordPage';
import { type AddressFormValues, addressFormValues, NO_ADDRESS } from '../../lib/forms';

/** One channel row as its inputs hold it. */
export interface ChannelFormValues {
  name: string;
  max_cost: number | string;
}

/** The Source form as its inputs hold it: text as strings ('' when empty), yes/no as 'true' / 'false'. */
export interface SourceFormValues extends AddressFormValues {
  name: string;
  contactName: string;
  email: string;
  phone: string;
  website: string;
  notes: string;
  tags: string[];
  tier: number | string;
  canPostLead: string;
  max_cost: number | string;
  channels: ChannelFormValues[];
  /** '' for none. */
  default_service: string;
  /** How the public API answers the source when a request names no format ('json', the default, for none). */
  answer_format: string;
  campaign_services: CampaignServiceFormValues[];
}

/** One row of the campaign map (a platform's campaign id -> a service). */
export interface CampaignServiceFormValues {
  campaign_id: string;
  service: string;
}

export const NEW_SOURCE: SourceFormValues = {
  name: '',
  contactName: '',
  email: '',
  phone: '',
  ...NO_ADDRESS,
  website: '',
  notes: '',
  tags: [],
  tier: '',
  canPostLead: 'false',
  max_cost: '',
  channels: [],
  default_service: '',
  answer_format: 'json',
  campaign_services: [],
};

export const NEW_CAMPAIGN_SERVICE: CampaignServiceFormValues = { campaign_id: '', service: '' };

export const NEW_CHANNEL: ChannelFormValues = { name: '', max_cost: '' };

export function toFormValues(source: Source): SourceFormValues {
  return {
    name: source.name,
    contactName: source.contactName ?? '',
    email: source.email,
    phone: source.phone,
    ...addressFormValues(source),
    website: source.website ?? '',
    notes: source.notes ?? '',
    tags: source.tags ?? [],
    tier: source.tier ?? '',
    canPostLead: String(source.canPostLead),
    max_cost: source.max_cost ?? '',
    channels: source.channels.map((c) => ({ name: c.name, max_cost: c.max_cost ?? '' })),
    default_service: source.default_service ?? '',
    answer_format: source.answer_format ?? 'json',
    campaign_services: source.campaign_services.map((c) => ({ ...c })),
  };
}

/** The shared schemas, so the form shows the spec's messages word for word. */
export const createSchema = sourceCreateSchema;
export const updateSchema = sourceUpdateSchema;

/** The source's screen as a form: /source/new creates, /source/{id} updates. */
export const SOURCE_FORM: CreateOrUpdateFormDefinition<SourceFormValues, Source> = {
  base: '/source',
  schemas: { create: createSchema, update: updateSchema },
  blank: NEW_SOURCE,
  toValues: toFormValues,
};

export const YES_NO_OPTIONS = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/** The public API's answer formats as the Source form offers them (issue 32 item 7). */
export const ANSWER_FORMAT_OPTIONS = [
  { value: 'json', label: 'JSON (the default)' },
  { value: 'xml', label: 'XML (the same fields as XML)' },
  { value: 'leadconduit', label: 'LeadConduit (outcome, reason, price, lead.id)' },
  { value: 'leadconduit_xml', label: 'LeadConduit, as XML' },
];
