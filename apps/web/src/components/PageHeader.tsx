import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link } from 'react-router';

export interface Crumb {
  label: string;
  to?: string;
}

export interface PageHeaderProps {
  title: ReactNode;
  /** A line under the title. */
  description?: ReactNode;
  /** Trail above the title; the last crumb is usually the page itself and has no link. */
  breadcrumbs?: Crumb[];
  /** Buttons on the right of the title. */
  actions?: ReactNode;
}

/** The browser tab's title of a screen: "Leads · Leadex". */
export const tabTitle = (screen: string) => (screen ? `${screen} · Leadex` : 'Leadex');

/**
 * Names the browser tab after the heading `ref` holds, as it reads now (a record's title may change
 * once it has loaded): the effect runs after every render.
 */
export function useTabTitle(ref: { current: HTMLElement | null }) {
  useEffect(() => {
    const title = tabTitle(ref.current?.textContent?.trim() ?? '');
    if (document.title !== title) document.title = title;
  });
}

/**
 * The top of every screen: breadcrumbs, title and the screen's buttons. The title is the screen's one
 * h1 (its sections' titles are h2: Section, TitledCard) and names the browser tab.
 */
export function PageHeader({ title, description, breadcrumbs, actions }: PageHeaderProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useTabTitle(heading);
  return (
    <Stack gap={6} mb="lg">
      {breadcrumbs && breadcrumbs.length > 0 && (
        <Breadcrumbs separatorMargin={6} fz="sm">
          {breadcrumbs.map((crumb) =>
            crumb.to ? (
              <Anchor key={crumb.label} component={Link} to={crumb.to} fz="sm">
                {crumb.label}
              </Anchor>
            ) : (
              <Text key={crumb.label} fz="sm" c="dimmed">
                {crumb.label}
              </Text>
            ),
          )}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <div>
          <Title order={1} size="h2" ref={heading}>
            {title}
          </Title>
          {description && (
            <Text c="dimmed" fz="sm" mt={2}>
              {description}
            </Text>
          )}
        </div>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
    </Stack>
  );
}
