import { AppShell, Box, Button, Group } from '@mantine/core';
import { IconLogin2 } from '@tabler/icons-react';
import { type ReactNode, Suspense } from 'react';
import { Link } from 'react-router';
import { Brand } from '../components/Brand';
import { PageLoader } from '../components/PageLoader';

/**
 * The frame of a page a logged-out visitor may read (/doc/api): the signed-in frame's header, with
 * the product and a way back to sign-in instead of the menu.
 */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <AppShell header={{ height: 60 }} padding={{ base: 'md', sm: 'xl' }}>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Brand />
          <Button component={Link} to="/auth" variant="light" leftSection={<IconLogin2 size={18} />}>
            Sign in
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Main bg="gray.0">
        <Box maw={1200} mx="auto">
          <Suspense fallback={<PageLoader />}>{children}</Suspense>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
