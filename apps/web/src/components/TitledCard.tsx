import { Card, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface TitledCardProps {
  title: ReactNode;
  description: ReactNode;
  children: ReactNode;
}

/** A card of the buyer's home (Stats, Payment Information, Message Us): its title, a line on it, then it. */
export function TitledCard({ title, description, children }: TitledCardProps) {
  return (
    <Card p="lg" shadow="xs" withBorder>
      <Title order={2} size="h4" mb={4}>
        {title}
      </Title>
      <Text c="dimmed" fz="sm" mb="md">
        {description}
      </Text>
      {children}
    </Card>
  );
}
