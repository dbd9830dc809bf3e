import { Alert, Anchor, Button, Group, PasswordInput, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../app/session';
import { schemaResolver } from '../../lib/forms';
import { queryKeys } from '../../lib/queryKeys';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { signIn, signInErrorText } from './auth.api';
import { type SignInValues, signInSchema } from './auth.schemas';
import { ForgotPasswordForm } from './ForgotPasswordForm';

/** /auth: sign-in, or the password reset request with ?show=forgot. */
export function SignInPage() {
  const [params] = useSearchParams();
  if (params.get('show') === 'forgot') return <ForgotPasswordForm />;
  return <SignInForm />;
}

function SignInForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: session } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SignInValues>({
    resolver: schemaResolver(signInSchema),
    defaultValues: { identifier: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ identifier, password }) => {
    setFailure(null);
    try {
      await signIn(identifier.trim(), password);
    } catch (error) {
      setFailure(signInErrorText(error));
      return;
    }
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
        <TextInput
          label="Email or username"
          autoComplete="username"
          autoFocus
          {...form.register('identifier')}
          error={errors.identifier?.message}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          {...form.register('password')}
          error={errors.password?.message}
        />
        <Group justify="flex-end" mt={-6}>
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
