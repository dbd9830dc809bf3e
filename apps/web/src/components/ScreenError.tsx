import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { Component, type ReactNode } from 'react';

export interface ScreenErrorBoundaryProps {
  children: ReactNode;
  /** Fills the window: no frame is drawn around it (an area's frame itself failed to load). */
  fullScreen?: boolean;
}

/**
 * What a screen shows when its code failed to load or it failed to draw, instead of a blank page
 * (issue 27 item 8). A chunk that fails to load makes the app reload itself once (main.tsx); a
 * second failure lands here, with a way to try again. Keyed by the path where it is used, so another
 * screen of the menu starts afresh.
 */
export class ScreenErrorBoundary extends Component<ScreenErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      // Full screen it is the page's main landmark; inside the frame, AppLayout's main holds it.
      <Center
        component={this.props.fullScreen ? 'main' : 'div'}
        {...(this.props.fullScreen ? { h: '100vh' } : { py: 80 })}
      >
        <Stack align="center" gap="xs" maw={460}>
          <Title order={1} size="h3" ta="center">
            This screen could not be loaded
          </Title>
          <Text c="dimmed" ta="center">
            Leadex may have been updated since this page was opened, or the connection dropped. Reload the page to get
            the current version.
          </Text>
          <Button mt="sm" leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Stack>
      </Center>
    );
  }
}
