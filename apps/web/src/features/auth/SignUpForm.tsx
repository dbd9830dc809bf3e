import {
  SIGNUP_DEFAULT_STATE,
  SIGNUP_HONEYPOT,
  SIGNUP_MESSAGES,
  type SignupFormValues,
  signupFormSchema,
  US_STATES,
  username as usernameRule,
} from '@leadex/domain';
import { Alert, Anchor, Box, Button, Grid, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { EditingFields } from '../../components/EditableForm';
import { SelectField } from '../../components/FormFields';
import { ApiRequestError } from '../../lib/api';
import { applyFieldErrors, inputProps, schemaResolver } from '../../lib/forms';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { isAvailable, resendVerification, signInErrorText, signUp } from './auth.api';

/** How long the availability checks wait for the user to stop typing. */
const AVAILABILITY_DEBOUNCE_MS = 400;

const BLANK: SignupFormValues = {
  username: '',
  password: '',
  confirmPassword: '',
  email: '',
  name: '',
  company: '',
  phone: '',
  address: '',
  city: '',
  state: SIGNUP_DEFAULT_STATE,
  zip: '',
  website: '',
  promo: '',
  [SIGNUP_HONEYPOT]: '',
};

const emailFormat = z.email();
const STATE_OPTIONS = [...US_STATES];
/** Two fields a row from the small breakpoint up, one a row on a phone. */
const HALF = { base: 12, sm: 6 };

/**
 * Whether `value` is taken, asked of the server once the user stops typing (portals spec §5: the
 * username and the email must be available). Answers the value found taken, or null.
 */
function useTaken(kind: 'name' | 'email', value: string, worthAsking: (v: string) => boolean): string | null {
  const [taken, setTaken] = useState<string | null>(null);
  useEffect(() => {
    const text = value.trim();
    if (!worthAsking(text)) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      isAvailable(kind, text, controller.signal).then(
        (available) => setTaken(available ? null : text),
        () => {}, // The server decides at submit anyway; a failed check is not the user's concern.
      );
    }, AVAILABILITY_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [kind, value, worthAsking]);
  return taken !== null && taken === value.trim() ? taken : null;
}

const usernameWorthAsking = (v: string) => usernameRule.safeParse(v).success;
const emailWorthAsking = (v: string) => emailFormat.safeParse(v).success;

/** /auth?show=signup: a prospective source signs up (portals spec §2, §5); the verification mail follows. */
export function SignUpForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SignupFormValues>({
    resolver: schemaResolver(signupFormSchema),
    defaultValues: BLANK,
    // Portals spec §5: the fields are checked as the user types.
    mode: 'onChange',
  });
  const { errors, isSubmitting } = form.formState;
  const nameTaken = useTaken('name', form.watch('username') ?? '', usernameWorthAsking);
  const emailTaken = useTaken('email', form.watch('email') ?? '', emailWorthAsking);

  const submit = form.handleSubmit(async ({ confirmPassword: _confirm, ...values }) => {
    setFailure(null);
    if (nameTaken || emailTaken) return;
    try {
      const answer = await signUp(values);
      setSentTo(answer.email);
    } catch (error) {
      applyFieldErrors(error, form.setError);
      setFailure(error instanceof ApiRequestError && error.status !== 0 ? error.message : signInErrorText(error));
    }
  });

  if (sentTo) return <CheckYourEmail email={sentTo} />;

  /** A text input bound to `name`; `taken` is the availability check's message, when the form has none. */
  const text = (
    name: keyof SignupFormValues,
    label: string,
    extra: { required?: boolean; type?: string; autoComplete?: string; autoFocus?: boolean; taken?: string } = {},
  ) => (
    <TextInput
      label={label}
      withAsterisk={extra.required ?? true}
      type={extra.type}
      autoComplete={extra.autoComplete}
      autoFocus={extra.autoFocus}
      {...form.register(name)}
      error={errors[name]?.message ?? extra.taken}
    />
  );
  const password = (name: 'password' | 'confirmPassword', label: string, onChange?: () => void) => (
    <PasswordInput label={label} withAsterisk autoComplete="new-password" {...inputProps(form, name, { onChange })} />
  );

  return (
    <AuthLayout
      width={640}
      title="Sign up"
      subtitle="Sell your leads on the exchange: tell us about your company. We email you a link to verify your address."
    >
      <EditingFields form={form}>
        <AuthForm onSubmit={submit} failure={failure}>
          <Grid gap="md">
            <Grid.Col span={HALF}>
              {text('username', 'Username', {
                autoComplete: 'username',
                autoFocus: true,
                taken: nameTaken ? SIGNUP_MESSAGES.usernameTaken : undefined,
              })}
            </Grid.Col>
            <Grid.Col span={HALF}>
              {text('email', 'Email', {
                type: 'email',
                autoComplete: 'email',
                taken: emailTaken ? SIGNUP_MESSAGES.emailTaken : undefined,
              })}
            </Grid.Col>
            {/* A changed password may now match the confirmation, or no longer. */}
            <Grid.Col span={HALF}>{password('password', 'Password', () => form.trigger('confirmPassword'))}</Grid.Col>
            <Grid.Col span={HALF}>{password('confirmPassword', 'Confirm password')}</Grid.Col>
            <Grid.Col span={HALF}>{text('name', 'Name')}</Grid.Col>
            <Grid.Col span={HALF}>{text('company', 'Company')}</Grid.Col>
            <Grid.Col span={HALF}>{text('phone', 'Phone', { type: 'tel' })}</Grid.Col>
            <Grid.Col span={HALF}>{text('address', 'Address')}</Grid.Col>
            <Grid.Col span={{ base: 12, sm: 5 }}>{text('city', 'City')}</Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <SelectField
                name="state"
                label="State"
                withAsterisk
                data={STATE_OPTIONS}
                searchable
                allowDeselect={false}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 4 }}>{text('zip', 'Zip')}</Grid.Col>
            <Grid.Col span={HALF}>{text('website', 'Website', { required: false })}</Grid.Col>
            <Grid.Col span={HALF}>{text('promo', 'Promo code', { required: false })}</Grid.Col>
          </Grid>
          {/* The honeypot: out of sight and out of the tab order; a person leaves it empty. */}
          <Box aria-hidden style={{ position: 'absolute', left: '-10000px', width: 1, height: 1, overflow: 'hidden' }}>
            <label htmlFor={SIGNUP_HONEYPOT}>Leave this field empty</label>
            <input id={SIGNUP_HONEYPOT} tabIndex={-1} autoComplete="off" {...form.register(SIGNUP_HONEYPOT)} />
          </Box>
          <Button type="submit" fullWidth size="md" loading={isSubmitting}>
            Sign up
          </Button>
          <Text ta="center" fz="sm">
            Already have an account?{' '}
            <Anchor component={Link} to="/auth">
              Sign in
            </Anchor>
          </Text>
        </AuthForm>
      </EditingFields>
    </AuthLayout>
  );
}

/** After signing up: where the link went, and a way to have it sent again. */
export function CheckYourEmail({ email }: { email: string }) {
  const [resent, setResent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setFailure(null);
    setSending(true);
    try {
      await resendVerification(email);
      setResent(true);
    } catch (error) {
      setFailure(signInErrorText(error));
    } finally {
      setSending(false);
    }
  };
  return (
    <AuthLayout title="Check your email">
      <Stack>
        <Alert color="green" icon={<IconMailCheck />}>
          We sent a link to {email}. Follow it to verify your email address, then sign in.
        </Alert>
        {resent && <Text fz="sm">A new link is on its way to {email}.</Text>}
        {failure && (
          <Text fz="sm" c="red" role="alert">
            {failure}
          </Text>
        )}
        <Button variant="light" onClick={resend} loading={sending}>
          Resend the link
        </Button>
        <Anchor component={Link} to="/auth" fz="sm" ta="center">
          Back to sign in
        </Anchor>
      </Stack>
    </AuthLayout>
  );
}
