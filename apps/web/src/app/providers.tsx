import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import 'mantine-datatable/styles.css';

import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { setUnauthenticatedHandler } from '../lib/api';
import { queryKeys } from '../lib/queryKeys';
import { cssVariablesResolver, theme } from './theme';

const queryClient = new QueryClient({
  defaultOptions: {
    // Every failure already raises a toast; retries would raise it again for one user action.
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});

// A 401 from any call means the session is gone (expired, or the user was locked): dropping the claims
// re-renders the router as a guest's, which sends the user to /auth.
setUnauthenticatedHandler(() => {
  if (queryClient.getQueryData(queryKeys.session)) queryClient.setQueryData(queryKeys.session, null);
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <Notifications position="top-center" zIndex={1000} />
        <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>{children}</ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
