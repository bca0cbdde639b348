import type { DashboardTrunk } from '@centralino/contract';
import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { registrationColor, trunkStatusColor } from './statusLook.ts';

/** A trunk of the dashboard: what it is, where it points, and what the PBX says of it. */
function TrunkCardView({ trunk }: { trunk: DashboardTrunk }) {
  const { t } = useTranslation();
  const registration = ['registered', 'unmonitored', 'unknown'].includes(trunk.registration)
    ? t(`dashboard.registration.${trunk.registration}`)
    : t('dashboard.registration.other', { value: trunk.registration });
  return (
    <Card withBorder radius="md" padding="sm" data-testid={`dashboard-trunk-${trunk.name}`}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text fw={600} component="h3" size="md" m={0}>
            {trunk.name}
          </Text>
          <Badge variant="outline" color="gray">
            {t(`dashboard.trunkKind.${trunk.kind}`)}
          </Badge>
        </Group>
        <Text size="sm">
          {trunk.chanType.toUpperCase()} · {trunk.ip || '—'}
          {trunk.port ? `:${trunk.port}` : ''}
        </Text>
        <Group gap="xs">
          <Badge color={trunkStatusColor(trunk.status)} variant="light" data-testid="trunk-status">
            {t('dashboard.trunkStatus', { status: t(`dashboard.status.${trunk.status}`) })}
          </Badge>
          <Badge
            color={registrationColor(trunk.registration)}
            variant="light"
            data-testid="trunk-registration"
            data-registration={trunk.registration}
          >
            {registration}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed">
          {t('dashboard.codecs', { codecs: trunk.codecs.join(', ') || '—' })}
        </Text>
      </Stack>
    </Card>
  );
}

/** Memoised like UserCard: only trunks whose data changed are drawn again. */
export const TrunkCard = memo(TrunkCardView);
