import { Alert, Anchor, Button, Group, PasswordInput, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiRequestError } from '../../lib/api';
import { inputProps, schemaResolver } from '../../lib/forms';
import { queryKeys } from '../../lib/queryKeys';
import { useSession } from '../../lib/session';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { resendVerification, setClaims, signIn, signInErrorText } from './auth.api';
import { type SignInValues, signInSchema } from './auth.schemas';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { SignUpForm } from './SignUpForm';
import { VerifyEmailPage } from './VerifyEmailPage';

/**
 * /auth: sign-in; the password reset request with ?show=forgot; the source sign-up with ?show=signup;
 * the email verification screens at /auth/verify-email.
 */
export function SignInPage() {
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  if (pathname.replace(/\/$/, '') === '/auth/verify-email') return <VerifyEmailPage />;
  if (params.get('show') === 'forgot') return <ForgotPasswordForm />;
  if (params.get('show') === 'signup') return <SignUpForm />;
  return <SignInForm />;
}

function SignInForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: session } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  /** The address of an account that has not verified it yet: a new link can be sent to it. */
  const [unverified, setUnverified] = useState<string | null>(null);
  const [resent, setResent] = useState(false);
  const form = useForm<SignInValues>({
    resolver: schemaResolver(signInSchema),
    defaultValues: { identifier: '', password: '' },
  });
  const { isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ identifier, password }) => {
    setFailure(null);
    setUnverified(null);
    setResent(false);
    try {
      await signIn(identifier.trim(), password);
    } catch (error) {
      setFailure(signInErrorText(error));
      const notVerified = error instanceof ApiRequestError && error.code === 'EMAIL_NOT_VERIFIED';
      if (notVerified && identifier.includes('@')) setUnverified(identifier.trim());
      return;
    }
    // Portals spec §2: a new session first sets its claims (a signed-up source's start on its welcome page).
    await setClaims().catch(() => undefined);
    // The new claims switch the router to the role's area; its home is '/' (a source's redirects on).
    await queryClient.refetchQueries({ queryKey: queryKeys.session });
    navigate('/', { replace: true });
  });

  return (
    <AuthLayout title="Sign in" subtitle="Welcome back. Sign in to your Leadex account.">
      <AuthForm
        onSubmit={submit}
        failure={failure}
        notice={
          session &&
          !session.role && (
            <Alert color="yellow" icon={<IconInfoCircle />}>
              Your account has no access yet. Contact the exchange, or sign in with another account.
            </Alert>
          )
        }
      >
        <TextInput label="Email or username" autoComplete="username" autoFocus {...inputProps(form, 'identifier')} />
        <PasswordInput label="Password" autoComplete="current-password" {...inputProps(form, 'password')} />
        {unverified && (
          <Group justify="space-between" mt={-6}>
            <Text fz="sm">{resent ? `A new link is on its way to ${unverified}.` : 'No email from us?'}</Text>
            {!resent && (
              <Anchor
                component="button"
                type="button"
                fz="sm"
                onClick={() =>
                  resendVerification(unverified).then(
                    () => setResent(true),
                    () => undefined,
                  )
                }
              >
                Resend the link
              </Anchor>
            )}
          </Group>
        )}
        <Group justify="space-between" mt={-6}>
          <Anchor component={Link} to="/auth?show=signup" fz="sm">
            New source? Sign up
          </Anchor>
          <Anchor component={Link} to="/auth?show=forgot" fz="sm">
            Forgot password?
          </Anchor>
        </Group>
        <Button type="submit" fullWidth size="md" loading={isSubmitting}>
          Sign in
        </Button>
      </AuthForm>
    </AuthLayout>
  );
}
