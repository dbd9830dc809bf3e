import { Group, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface SectionProps {
  title: ReactNode;
  description?: ReactNode;
  /** Controls on the right of the section's title. */
  actions?: ReactNode;
  children: ReactNode;
}

/** A titled card grouping the fields of one part of a record (Profile, Billing, Users, …). */
export function Section({ title, description, actions, children }: SectionProps) {
  return (
    <Paper withBorder p="lg" shadow="xs">
      <Group justify="space-between" mb="md" gap="xs">
        <div>
          <Title order={2} size="h4">
            {title}
          </Title>
          {description && (
            <Text c="dimmed" fz="sm">
              {description}
            </Text>
          )}
        </div>
        {actions}
      </Group>
      {children}
    </Paper>
  );
}
