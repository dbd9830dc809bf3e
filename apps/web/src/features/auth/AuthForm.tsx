import { Alert, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { FormEventHandler, ReactNode } from 'react';

export interface AuthFormProps {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** Why the last attempt failed, in the spec's words; the auth screens say it here, not in a toast. */
  failure: string | null;
  /** A standing note above the failure (an account without access). */
  notice?: ReactNode;
  children: ReactNode;
}

/** The form of a sign-in screen (sign in, forgot and reset password): notes, the failure, the fields. */
export function AuthForm({ onSubmit, failure, notice, children }: AuthFormProps) {
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        {notice}
        {failure && (
          <Alert color="red" icon={<IconAlertCircle />} role="alert">
            {failure}
          </Alert>
        )}
        {children}
      </Stack>
    </form>
  );
}
