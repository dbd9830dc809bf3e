import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';

/** The product's mark and name, in the header and on the sign-in pages. */
export function Brand({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const large = size === 'lg';
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon size={large ? 44 : 34} radius="md" variant="gradient" gradient={{ from: 'brand.5', to: 'brand.9' }}>
        <IconArrowsExchange size={large ? 26 : 20} stroke={2.2} />
      </ThemeIcon>
      <Text fw={750} fz={large ? 28 : 22} lts={-0.5} c="dark.8">
        Leadex
      </Text>
    </Group>
  );
}
