import {
  BILL_PERIODS,
  type Buyer,
  buyerCreateSchema,
  buyerUpdateSchema,
  GRACE_DAYS,
  PAY_METHOD_LABELS,
  PAY_METHODS,
} from '@leadex/domain';
import type { CreateOrUpdateFormDefinition } from '../../components/RecordPage';
import { type AddressFormValues, addressFormValues, NO_ADDRESS } from '../../lib/forms';

/** The buyer form as its inputs hold it: text as strings ('' when empty), selects as strings. */
export interface BuyerFormValues extends AddressFormValues {
  username: string;
  name: string;
  email: string;
  phone: string;
  notes: string;
  tags: string[];
  /** Lead Delivery: the default delivery copied onto the buyer's new campaigns. */
  notify: { email: string[]; sms: string[]; webhook: string; broadcast_webhooks: string[] };
  /** Share of a bill's leads returned without an admin, 0 to 1 (the slider shows percent). */
  autoApproveReturns: number;
  /** Whether the buyer sees each lead's source (off by default; issue 27). */
  showSource: boolean;
  /** The daily budget across the buyer's campaigns, in dollars as typed; '' = none (issue 33). */
  budget_daily: number | string;
  bill: {
    pay: string;
    prepay: number | string;
    period: string;
    grace: string;
    threshold: number | string;
  };
}

/** Admin spec §9: a new buyer is billed by invoice, monthly, with 3 days' grace. */
export const NEW_BUYER: BuyerFormValues = {
  username: '',
  name: '',
  email: '',
  phone: '',
  ...NO_ADDRESS,
  notes: '',
  tags: [],
  notify: { email: [], sms: [], webhook: '', broadcast_webhooks: [] },
  autoApproveReturns: 0,
  showSource: false,
  budget_daily: '',
  bill: { pay: 'invoice', prepay: 0, period: 'monthly', grace: '3', threshold: 0 },
};

/** Top-level fields the API replaces whole: a change to one list sends the whole delivery. */
export const WHOLE_FIELDS = ['notify'] as const;

export function toFormValues(buyer: Buyer): BuyerFormValues {
  return {
    username: buyer.username,
    name: buyer.name,
    email: buyer.email,
    phone: buyer.phone,
    ...addressFormValues(buyer),
    notes: buyer.notes ?? '',
    tags: buyer.tags ?? [],
    notify: {
      email: buyer.notify?.email ?? [],
      sms: buyer.notify?.sms ?? [],
      webhook: buyer.notify?.webhook ?? '',
      broadcast_webhooks: buyer.notify?.broadcast_webhooks ?? [],
    },
    autoApproveReturns: buyer.autoApproveReturns ?? 0,
    showSource: buyer.showSource ?? false,
    budget_daily: buyer.budget_daily ?? '',
    bill: {
      pay: buyer.bill.pay,
      prepay: buyer.bill.prepay,
      period: buyer.bill.period,
      grace: String(buyer.bill.grace),
      threshold: buyer.bill.threshold,
    },
  };
}

/** The shared schemas, so the form shows the spec's messages word for word. */
export const createSchema = buyerCreateSchema;
// The username is shown on an existing buyer but is not part of an update (the API refuses it).
export const updateSchema = buyerUpdateSchema.omit({ username: true });

/** The buyer's screen as a form: /buyer/new creates, /buyer/{id} updates. */
export const BUYER_FORM: CreateOrUpdateFormDefinition<BuyerFormValues, Buyer> = {
  base: '/buyer',
  schemas: { create: createSchema, update: updateSchema },
  blank: NEW_BUYER,
  toValues: toFormValues,
};

export const PAY_METHOD_OPTIONS = PAY_METHODS.map((value) => ({ value, label: PAY_METHOD_LABELS[value] }));
export const PERIOD_OPTIONS = BILL_PERIODS.map((value) => ({
  value,
  label: value === 'weekly' ? 'Weekly' : 'Monthly',
}));
export const GRACE_OPTIONS = GRACE_DAYS.map((days) => ({
  value: String(days),
  label: days === 0 ? 'No grace period' : `${days} days`,
}));
