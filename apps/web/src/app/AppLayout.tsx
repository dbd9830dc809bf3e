import type { Role } from '@leadex/domain';
import { AppShell, Badge, Box, Burger, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Brand } from '../components/Brand';
import { PageLoader } from '../components/PageLoader';
import { ScreenErrorBoundary } from '../components/ScreenError';
import { useServiceLabel } from '../components/ServiceName';
import { useSession } from '../lib/session';
import { MENUS, ROLE_LABELS } from './navigation';

/**
 * The signed-in frame of every role (spec §2): header 60 high with the product and the role, side
 * navigation 300 wide with the role's menu, collapsed behind a burger on small screens.
 */
/** `area`: whose area this frame shows (the signed-in user's role). */
export function AppLayout({ area }: { area: Role }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname, search } = useLocation();
  const params = new URLSearchParams(search);
  const menu = MENUS[area];
  const main = menu.slice(0, -1);
  const logout = menu[menu.length - 1];
  const user = useSession().data;
  // The services' labels, asked for with the frame rather than by the first table that names one, so
  // they are there before a screen's own calls (and never a call in flight after the screen settled).
  useServiceLabel();

  const link = (item: (typeof menu)[number]) => (
    <NavLink
      key={item.label}
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={<item.icon size={20} stroke={1.6} />}
      active={item.isActive(pathname, params)}
      onClick={close}
      variant="light"
      py={10}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
    />
  );

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 300, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'md', sm: 'xl' }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Brand />
          </Group>
          <Group gap="xs" wrap="nowrap" miw={0} aria-label="Signed in user" role="group">
            <Text fz="sm" c="dimmed" visibleFrom="xs">
              Signed in as
            </Text>
            {user?.email && (
              <Text fz="sm" fw={500} truncate="end" maw={{ base: 140, sm: 320 }} title={user.email} visibleFrom="xs">
                {user.name && user.name !== user.email ? `${user.name} (${user.email})` : user.email}
              </Text>
            )}
            <Badge size="lg" variant="light" radius="sm" data-testid="user-role">
              {ROLE_LABELS[area]}
            </Badge>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main navigation">
        {/* Its links take focus, so its viewport needs no tab stop (the theme gives scroll areas one). */}
        <AppShell.Section grow component={ScrollArea} viewportProps={{}}>
          {main.map(link)}
        </AppShell.Section>
        {logout && (
          <AppShell.Section pt="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
            {link(logout)}
          </AppShell.Section>
        )}
      </AppShell.Navbar>

      {/*
        The side navigation is fixed to the window; on a screen taller than the window the main area's
        own background, drawn the navigation's colour under it, carries it down to the page's end (a
        full-page capture or print of a long screen showed it stopping at the first window's height).
      */}
      <AppShell.Main
        style={{
          background:
            'linear-gradient(to right, var(--mantine-color-body) calc(var(--app-shell-navbar-offset, 0rem) - 1px), var(--app-shell-border-color) calc(var(--app-shell-navbar-offset, 0rem) - 1px) var(--app-shell-navbar-offset, 0rem), var(--mantine-color-gray-0) var(--app-shell-navbar-offset, 0rem))',
        }}
      >
        <Box maw={1400} mx="auto">
          {/* A screen's code loading keeps the frame and the menu in place. */}
          <ScreenErrorBoundary key={pathname}>
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </ScreenErrorBoundary>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}
