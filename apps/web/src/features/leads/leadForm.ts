import { LEAD_EDITABLE_FIELDS, type LeadDetail, type LeadUpdate, leadUpdateSchema } from '@leadex/domain';
import { z } from 'zod';

/** Yes or No, as a select holds a flag; '' for a flag the source did not send (shown as Unknown). */
export type YesNo = 'yes' | 'no' | '';
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

/** The form's fields that are not texts: the flags (Yes/No selects) and the tags. */
const NOT_TEXT = ['tcpa_consent', 'homeowner', 'tags'] as const;
type TextField = Exclude<(typeof LEAD_EDITABLE_FIELDS)[number], (typeof NOT_TEXT)[number]>;
const TEXT_FIELDS = LEAD_EDITABLE_FIELDS.filter((f): f is TextField => !(NOT_TEXT as readonly string[]).includes(f));

/** The texts a lead may lose (all but its ZIP and service, which it must keep): an emptied input clears them (null). */
const CLEARABLE: readonly string[] = TEXT_FIELDS.filter((f) => f !== 'zip' && f !== 'service');

/** The shared rules of PUT /api/lead/{id} (the post's), on the form's values. */
export const leadFormSchema = leadUpdateSchema.extend({
  tcpa_consent: z.enum(['yes', 'no', '']),
  homeowner: z.enum(['yes', 'no', '']),
});

const yesNo = (value: boolean | undefined): YesNo => (value === undefined ? '' : value ? 'yes' : 'no');

/** A lead as the form's values (module level, so the values stay stable per record). */
export function toLeadFormValues(lead: LeadDetail): LeadFormValues {
  const texts = Object.fromEntries(TEXT_FIELDS.map((field) => [field, lead[field] ?? ''])) as Record<TextField, string>;
  return {
    ...texts,
    tcpa_consent: yesNo(lead.tcpa_consent),
    homeowner: yesNo(lead.homeowner),
    tags: lead.tags ?? [],
  };
}

/** The changed form values as the PUT's body: flags as booleans, emptied texts as null. */
export function toLeadUpdate(changes: Partial<LeadFormValues>): LeadUpdate {
  const update: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (key === 'tcpa_consent' || key === 'homeowner') {
      // Unknown is what the source sent; an admin may set Yes or No, never unset it.
      if (value !== '') update[key] = value === 'yes';
    } else if (CLEARABLE.includes(key) && typeof value === 'string' && value.trim() === '') update[key] = null;
    else update[key] = value;
  }
  return update as LeadUpdate;
}
