import { username } from '@leadex/domain';
import { z } from 'zod';

/** Portals spec §8: the text for an empty required field of the authentication forms. */
export const FIELD_REQUIRED = 'Field is not optional';

const emailAddress = z.email('Invalid email address.');

/**
 * Sign-in: one identifier, an email when it contains '@', else a username checked with the sign-up
 * rules (portals spec §5). The password is not checked for strength at sign-in.
 */
export const signInSchema = z.object({
  identifier: z
    .string()
    .trim()
    .min(1, FIELD_REQUIRED)
    .superRefine((value, ctx) => {
      const result = (value.includes('@') ? emailAddress : username).safeParse(value);
      if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? FIELD_REQUIRED });
    }),
  password: z.string().min(1, FIELD_REQUIRED),
});
export type SignInValues = z.input<typeof signInSchema>;

export const forgotPasswordSchema = z.object({
  email: z.string().trim().min(1, FIELD_REQUIRED).pipe(emailAddress),
});
export type ForgotPasswordValues = z.input<typeof forgotPasswordSchema>;

/** Portals spec §5: at least 8 characters, under 100, a letter and a digit; the confirmation must match. */
export const newPasswordSchema = z
  .object({
    newPassword: z
      .string()
      .min(1, FIELD_REQUIRED)
      .min(8, 'Password must be at least 8 characters long.')
      .max(99, 'Password must be less than 100 characters long.')
      .regex(/[A-Za-z]/, 'Password must contain at least one letter and one number.')
      .regex(/\d/, 'Password must contain at least one letter and one number.'),
    confirmPassword: z.string().min(1, FIELD_REQUIRED),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    path: ['confirmPassword'],
    message: 'Passwords do not match.',
  });
export type NewPasswordValues = z.input<typeof newPasswordSchema>;
