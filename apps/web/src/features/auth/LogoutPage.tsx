import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { PageLoader } from '../../components/PageLoader';
import { queryKeys } from '../../lib/queryKeys';
import { signOut } from './auth.api';

/** /logout: ends the session and lands on /auth. */
export function LogoutPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // StrictMode runs effects twice in development; one sign-out is enough.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    signOut()
      .catch(() => {
        // The toast has said why; the session is re-read below, so the user sees where they stand.
      })
      .finally(async () => {
        // Nothing cached for the previous user may show to the next one.
        queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });
        await queryClient.refetchQueries({ queryKey: queryKeys.session });
        navigate('/auth', { replace: true });
      });
  }, [navigate, queryClient]);

  return <PageLoader fullScreen />;
}
