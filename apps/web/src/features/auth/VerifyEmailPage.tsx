import { Alert, Anchor, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiRequestError } from '../../lib/api';
import { useSession } from '../../lib/session';
import { AuthLayout } from './AuthLayout';
import { AUTH_TEXTS, useEmailVerification } from './auth.api';

/** better-auth's codes for a link that cannot verify any more (or never could). */
const INVALID_LINK_CODES = new Set(['INVALID_TOKEN', 'TOKEN_EXPIRED', 'USER_NOT_FOUND']);

function isInvalidLink(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 401 || INVALID_LINK_CODES.has(error.code ?? ''));
}

/**
 * /auth/verify-email?token=…, opened from the sign-up's email (portals spec §2, email verification
 * screens): interaction required (Continue verifies), loading, successful, invalid or expired, error.
 * Without a token and a session the user goes to auth.
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const { data: session } = useSession();
  const navigate = useNavigate();
  // The link was followed; verifying waits for the person (a mail scanner opening links verifies nothing).
  const [started, setStarted] = useState(false);
  const verification = useEmailVerification(token, started);

  if (!token) return <Navigate to={session?.role ? '/' : '/auth'} replace />;

  if (!started) {
    return (
      <AuthLayout title="Verify your email" subtitle="Confirm that this email address is yours to finish signing up.">
        <Button fullWidth size="md" onClick={() => setStarted(true)}>
          Continue
        </Button>
      </AuthLayout>
    );
  }

  if (verification.isPending) {
    return (
      <AuthLayout title="Verifying your email">
        <Center py="lg">
          <Loader aria-label="Verifying your email" />
        </Center>
      </AuthLayout>
    );
  }

  if (verification.isError && isInvalidLink(verification.error)) {
    return (
      <AuthLayout title={AUTH_TEXTS.verificationExpired}>
        <Stack>
          <Alert color="yellow" icon={<IconAlertTriangle />}>
            This link is no longer valid. Sign in to have a new one sent, or use the newest link we emailed you.
          </Alert>
          <Anchor component={Link} to="/auth" ta="center">
            Continue
          </Anchor>
        </Stack>
      </AuthLayout>
    );
  }

  if (verification.isError) {
    return (
      <AuthLayout title={AUTH_TEXTS.somethingWentWrong}>
        <Stack>
          <Text c="dimmed">
            Your email address could not be verified just now. Follow the link in the email again in a moment.
          </Text>
          <Anchor component={Link} to="/auth" ta="center">
            Back to sign in
          </Anchor>
        </Stack>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Email verified">
      <Stack>
        <Alert color="green" icon={<IconCircleCheck />}>
          Your email address is verified. Sign in to start sending leads.
        </Alert>
        <Button fullWidth size="md" onClick={() => navigate('/auth', { replace: true })}>
          Continue
        </Button>
      </Stack>
    </AuthLayout>
  );
}
