import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { PageHeader } from './PageHeader';

/** The one placeholder for screens later issues build: the screen's title and a short note. */
export function ComingSoonPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Paper withBorder p="xl" shadow="xs">
        <Stack align="center" gap="xs" py="xl">
          <ThemeIcon size={48} radius="xl" variant="light">
            <IconTools size={26} />
          </ThemeIcon>
          <Title order={4}>Coming soon</Title>
          <Text c="dimmed" ta="center" maw={420}>
            This screen is on its way and will appear here in a coming release.
          </Text>
        </Stack>
      </Paper>
    </>
  );
}
