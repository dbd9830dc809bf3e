import { z } from 'zod';
import { usernameField } from './buyer';
import { emptyToUndefined, requiredText } from './common';
import { US_STATES } from './constants';
import { whenMissing } from './messages';

/** Portals spec §5 (sign-up): the form's messages, word for word. */
export const SIGNUP_MESSAGES = {
  emailRequired: 'Email cannot be empty',
  passwordRequired: 'Password cannot be empty',
  usernameRequired: 'Username cannot be empty',
  nameRequired: 'Name cannot be empty',
  companyRequired: 'Company cannot be empty',
  phoneRequired: 'Phone cannot be empty',
  addressRequired: 'Address cannot be empty',
  cityRequired: 'City cannot be empty',
  zipRequired: 'Zip cannot be empty',
  /** An empty required field with no message of its own (the password confirmation). */
  fieldRequired: 'Field is not optional.',
  invalidEmail: 'Invalid email address.',
  usernameTaken: 'Username is already taken.',
  emailTaken: 'This email already exists.',
  /** Portals spec §8: the sign-up's answer for an address that already has an account. */
  emailTakenSignIn: 'This email already exists. Please sign in instead',
  passwordTooShort: 'Password must be at least 8 characters long.',
  passwordTooLong: 'Password must be less than 100 characters long.',
  passwordLetterAndDigit: 'Password must contain at least one letter and one number.',
  passwordsDiffer: 'Passwords do not match.',
  /** Not the spec's: every way of setting a password refuses a commonly breached one (issue 29, ASVS 2.1.7). */
  passwordCommon: 'This password is on a list of commonly breached passwords: choose one that is harder to guess.',
  zipFormat: 'Zip must be 5 digits',
  phoneFormat: 'Phone must have 10 digits',
} as const;

/** Portals spec §9: the sign-up's state starts as CA. */
export const SIGNUP_DEFAULT_STATE = 'CA';

/** Portals spec §2: the email verification screens refetch their status after 10 seconds at the earliest. */
export const EMAIL_VERIFICATION_REFETCH_MS = 10_000;

/** The honeypot's name: hidden from people, filled by bots (a filled one creates nothing). */
export const SIGNUP_HONEYPOT = 'email_address_confirmation';

const signupUsername = usernameField(SIGNUP_MESSAGES.usernameRequired);

const signupEmail = z
  .string({ error: whenMissing(SIGNUP_MESSAGES.emailRequired) })
  .trim()
  .min(1, SIGNUP_MESSAGES.emailRequired)
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email(SIGNUP_MESSAGES.invalidEmail));

/** Portals spec §5: 8 to 99 characters, a letter and a digit. */
export const signupPassword = z
  .string({ error: whenMissing(SIGNUP_MESSAGES.passwordRequired) })
  .min(1, SIGNUP_MESSAGES.passwordRequired)
  .min(8, SIGNUP_MESSAGES.passwordTooShort)
  .max(99, SIGNUP_MESSAGES.passwordTooLong)
  .regex(/[A-Za-z]/, SIGNUP_MESSAGES.passwordLetterAndDigit)
  .regex(/\d/, SIGNUP_MESSAGES.passwordLetterAndDigit);

const optional = (label: string, max: number) =>
  z.preprocess(emptyToUndefined, z.string().trim().max(max, `${label} must be at most ${max} characters`).optional());

const signupFields = {
  username: signupUsername,
  password: signupPassword,
  email: signupEmail,
  name: requiredText(SIGNUP_MESSAGES.nameRequired, 200).max(200, 'Name must be at most 200 characters'),
  company: requiredText(SIGNUP_MESSAGES.companyRequired, 200).max(200, 'Company must be at most 200 characters'),
  phone: requiredText(SIGNUP_MESSAGES.phoneRequired, 40)
    .max(40, 'Phone must be at most 40 characters')
    .refine((v) => v.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '').length === 10, SIGNUP_MESSAGES.phoneFormat),
  address: requiredText(SIGNUP_MESSAGES.addressRequired, 300).max(300, 'Address must be at most 300 characters'),
  city: requiredText(SIGNUP_MESSAGES.cityRequired, 100).max(100, 'City must be at most 100 characters'),
  state: z.preprocess(
    (v) => (typeof v === 'string' ? (emptyToUndefined(v.trim().toUpperCase()) ?? SIGNUP_DEFAULT_STATE) : v),
    z.enum(US_STATES, { error: 'State must be a US state' }).default(SIGNUP_DEFAULT_STATE),
  ),
  zip: requiredText(SIGNUP_MESSAGES.zipRequired, 5).regex(/^\d{5}$/, SIGNUP_MESSAGES.zipFormat),
  website: optional('Website', 300),
  promo: optional('Promo code', 100),
  [SIGNUP_HONEYPOT]: z.preprocess(emptyToUndefined, z.string().max(500).optional()),
};

/** POST /api/signup: a prospective source's company and contact data and its sign-in (portals spec §2, §5). */
export const signupSchema = z.object(signupFields);
export type SignupInput = z.infer<typeof signupSchema>;

/** The sign-up form: the API's fields and the password's confirmation, which must match. */
export const signupFormSchema = z
  .object({
    ...signupFields,
    confirmPassword: z
      .string({ error: whenMissing(SIGNUP_MESSAGES.fieldRequired) })
      .min(1, SIGNUP_MESSAGES.fieldRequired),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ['confirmPassword'],
    message: SIGNUP_MESSAGES.passwordsDiffer,
  });
/** The form's values as its inputs hold them: text, '' for empty. */
export type SignupFormValues = { [K in keyof z.input<typeof signupFormSchema>]-?: string };

/** POST /api/signup's answer: where the verification link went (the same for a filled honeypot). */
export const signupAnswerSchema = z.object({ ok: z.literal(true), email: z.string() });
export type SignupAnswer = z.infer<typeof signupAnswerSchema>;

/** GET /api/signup/isuseravail/{name|email}/{value}: true when nobody has it. */
export const availabilityAnswerSchema = z.object({ ok: z.boolean() });
export type AvailabilityAnswer = z.infer<typeof availabilityAnswerSchema>;

export const availabilityParams = {
  name: z.object({ name: z.string().trim().min(1).max(254) }),
  email: z.object({ email: z.string().trim().min(1).max(254) }),
};

/** Resending the verification link (better-auth's /send-verification-email takes the same body). */
export const resendVerificationSchema = z.object({ email: signupEmail });
