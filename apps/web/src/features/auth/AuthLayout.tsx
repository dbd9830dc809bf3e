import { Box, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useRef } from 'react';
import { Brand } from '../../components/Brand';
import { useTabTitle } from '../../components/PageHeader';

/** The logged-out frame: the brand above one card on a soft background. */
export function AuthLayout({
  title,
  subtitle,
  width = 420,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  /** The card's width: the sign-up form needs two columns. */
  width?: number;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useTabTitle(heading);
  return (
    <Box
      component="main"
      mih="100vh"
      style={{
        background:
          'radial-gradient(circle at 20% 10%, var(--mantine-color-brand-1), transparent 45%), var(--mantine-color-gray-0)',
      }}
    >
      <Center mih="100vh" p="md">
        <Stack w="100%" maw={width} gap="lg">
          <Center>
            <Brand size="lg" />
          </Center>
          <Paper withBorder shadow="md" p="xl" radius="lg">
            <Title order={1} size="h3" mb={4} ref={heading}>
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" fz="sm" mb="lg">
                {subtitle}
              </Text>
            )}
            {children}
          </Paper>
          <Text c="dimmed" fz="xs" ta="center">
            Leadex lead exchange
          </Text>
        </Stack>
      </Center>
    </Box>
  );
}
