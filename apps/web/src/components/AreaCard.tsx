import { Card, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A landing page's card for one area or app: its icon, name and what it is for, linking to it. */
export function AreaCard({
  icon,
  title,
  description,
  to,
  external,
  testId,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  to: string;
  /** A page outside the console (the API documentation), opened in a new tab. */
  external?: boolean;
  testId?: string;
}) {
  const content = (
    <>
      {icon}
      <Text fw={600} mt="sm">
        {title}
      </Text>
      <Text size="sm" c="dimmed">
        {description}
      </Text>
    </>
  );
  return external ? (
    <Card withBorder radius="md" component="a" href={to} target="_blank" rel="noreferrer" data-testid={testId}>
      {content}
    </Card>
  ) : (
    <Card withBorder radius="md" component={Link} to={to} data-testid={testId}>
      {content}
    </Card>
  );
}
