import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { inputProps, schemaResolver } from '../../lib/forms';
import { AuthForm } from './AuthForm';
import { AuthLayout } from './AuthLayout';
import { requestPasswordReset, signInErrorText } from './auth.api';
import { type ForgotPasswordValues, forgotPasswordSchema } from './auth.schemas';

/** /auth?show=forgot: asks for the account's email and sends it a reset link. */
export function ForgotPasswordForm() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ForgotPasswordValues>({
    resolver: schemaResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });
  const { isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ email }) => {
    setFailure(null);
    try {
      await requestPasswordReset(email.trim());
      setSentTo(email.trim());
    } catch (error) {
      setFailure(signInErrorText(error));
    }
  });

  const back = (
    <Anchor component={Link} to="/auth" fz="sm" ta="center">
      Back to sign in
    </Anchor>
  );

  if (sentTo) {
    return (
      <AuthLayout title="Check your email">
        <Stack>
          <Alert color="green" icon={<IconMailCheck />}>
            {/* The same answer whether or not the account exists, so the form cannot reveal accounts. */}
            If an account uses {sentTo}, a link to reset its password is on its way.
          </Alert>
          {back}
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Reset your password" subtitle="Enter your account's email and we will send you a link.">
      <AuthForm onSubmit={submit} failure={failure}>
        <TextInput label="Email" type="email" autoComplete="email" autoFocus {...inputProps(form, 'email')} />
        <Button type="submit" fullWidth size="md" loading={isSubmitting}>
          Send reset link
        </Button>
        <Text ta="center">{back}</Text>
      </AuthForm>
    </AuthLayout>
  );
}
