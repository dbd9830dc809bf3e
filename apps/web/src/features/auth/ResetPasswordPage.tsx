import { Anchor, Button, PasswordInput, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { inputProps, schemaResolver } from '../../lib/forms';
import { showSuccess } from '../../lib/notify';
import { queryKeys } from '../../lib/queryKeys';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { AUTH_TEXTS, resetErrorText, resetPassword } from './auth.api';
import { type NewPasswordValues, newPasswordSchema } from './auth.schemas';

/**
 * /reset-password?token=…: sets a new password. Welcome emails link here with welcome=1 (a new user
 * sets its first password); better-auth sends an expired or unknown link here with error=INVALID_TOKEN.
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const token = params.get('token');
  const welcome = params.get('welcome') === '1';
  const [failure, setFailure] = useState<string | null>(
    !token || params.get('error') ? AUTH_TEXTS.invalidResetToken : null,
  );
  const form = useForm<NewPasswordValues>({
    resolver: schemaResolver(newPasswordSchema),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const { isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ newPassword }) => {
    if (!token) return;
    setFailure(null);
    try {
      await resetPassword(token, newPassword);
    } catch (error) {
      setFailure(resetErrorText(error));
      return;
    }
    showSuccess(
      welcome ? 'Your password is set. Sign in to continue.' : 'Your password has been reset. Sign in to continue.',
    );
    // A reset ends the user's other sessions; let /auth see the session as it now is.
    await queryClient.refetchQueries({ queryKey: queryKeys.session });
    navigate('/auth', { replace: true });
  });

  return (
    <AuthLayout
      title={welcome ? 'Set your password' : 'Reset your password'}
      subtitle={
        welcome
          ? 'Welcome to Leadex. Choose a password to finish setting up your account.'
          : 'Choose a new password for your account.'
      }
    >
      <AuthForm onSubmit={submit} failure={failure}>
        <PasswordInput
          label="New password"
          description="At least 8 characters, with a letter and a number."
          autoComplete="new-password"
          autoFocus
          disabled={!token}
          {...inputProps(form, 'newPassword')}
        />
        <PasswordInput
          label="Confirm password"
          autoComplete="new-password"
          disabled={!token}
          {...inputProps(form, 'confirmPassword')}
        />
        <Button type="submit" fullWidth size="md" loading={isSubmitting} disabled={!token}>
          {welcome ? 'Set password' : 'Reset password'}
        </Button>
        <Text ta="center" fz="sm">
          <Anchor component={Link} to="/auth?show=forgot" fz="sm">
            Request a new link
          </Anchor>
          {' · '}
          <Anchor component={Link} to="/auth" fz="sm">
            Back to sign in
          </Anchor>
        </Text>
      </AuthForm>
    </AuthLayout>
  );
}
