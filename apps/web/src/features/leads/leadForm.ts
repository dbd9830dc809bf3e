import { type LeadDetail, type LeadUpdate, leadUpdateSchema } from '@leadex/domain';
import { z } from 'zod';

/** Yes or No, as a select holds a flag. */
export type YesNo = 'yes' | 'no';
export const YES_NO_OPTIONS = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

/** The admin's lead form (LEAD_EDITABLE_FIELDS) as its inputs hold it: '' for empty, flags as Yes/No. */
export interface LeadFormValues {
  name: string;
  phone: string;
  email: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  service: string;
  pub_id: string;
  sub_id: string;
  trusted_form: string;
  jornaya: string;
  tcpa_language: string;
  tcpa_consent: YesNo;
  homeowner: YesNo;
  tags: string[];
}

/** The texts a lead may lose: an emptied input clears them (null). */
const CLEARABLE = [
  'name',
  'phone',
  'email',
  'address',
  'city',
  'state',
  'pub_id',
  'sub_id',
  'trusted_form',
  'jornaya',
  'tcpa_language',
] as const;

/** The shared rules of PUT /api/lead/{id} (the post's), on the form's values. */
export const leadFormSchema = leadUpdateSchema.extend({
  tcpa_consent: z.enum(['yes', 'no']),
  homeowner: z.enum(['yes', 'no']),
});

const yesNo = (value: boolean | undefined): YesNo => (value ? 'yes' : 'no');

/** A lead as the form's values (module level, so the values stay stable per record). */
export function toLeadFormValues(lead: LeadDetail): LeadFormValues {
  return {
    name: lead.name ?? '',
    phone: lead.phone ?? '',
    email: lead.email ?? '',
    address: lead.address ?? '',
    city: lead.city ?? '',
    state: lead.state ?? '',
    zip: lead.zip,
    service: lead.service,
    pub_id: lead.pub_id ?? '',
    sub_id: lead.sub_id ?? '',
    trusted_form: lead.trusted_form ?? '',
    jornaya: lead.jornaya ?? '',
    tcpa_language: lead.tcpa_language ?? '',
    tcpa_consent: yesNo(lead.tcpa_consent),
    homeowner: yesNo(lead.homeowner),
    tags: lead.tags ?? [],
  };
}

/** The changed form values as the PUT's body: flags as booleans, emptied texts as null. */
export function toLeadUpdate(changes: Partial<LeadFormValues>): LeadUpdate {
  const update: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (key === 'tcpa_consent' || key === 'homeowner') update[key] = value === 'yes';
    else if ((CLEARABLE as readonly string[]).includes(key) && typeof value === 'string' && value.trim() === '')
      update[key] = null;
    else update[key] = value;
  }
  return update as LeadUpdate;
}
