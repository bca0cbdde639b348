import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { bulkApi } from './bulkApi.ts';

/**
 * A user's call settings as the bulk editor stores them (ring time, call waiting, groups, caller ID and the
 * three destinations), shown on the user's own screen so nothing set in bulk is hidden there.
 */
export function CallSettingsSummary({ extension }: { extension: string }) {
  const { t } = useTranslation();
  const settings = useQuery({
    queryKey: ['bulk', 'settings', [extension]],
    queryFn: () => bulkApi.settings([extension]),
  });
  const destinations = useQuery({ queryKey: ['destinations'], queryFn: bulkApi.destinations });
  if (!settings.data) return null;
  const s = settings.data;
  const describe = (value: string | null) => {
    if (!value) return t('bulkExt.destinations.none');
    for (const entries of Object.values(destinations.data ?? {})) {
      for (const e of Object.values(entries)) if (e.destination === value) return e.description;
    }
    return value;
  };
  const rows: [string, string][] = [
    [t('bulkExt.fields.ringtime'), s.ringtime === '0' ? t('bulkExt.summary.defaultRing') : (s.ringtime ?? '')],
    [t('bulkExt.fields.callwaiting'), s.callwaiting ? t('bulkExt.summary.on') : t('bulkExt.summary.off')],
    [t('bulkExt.fields.callgroup'), s.callgroup || '—'],
    [t('bulkExt.fields.pickupgroup'), s.pickupgroup || '—'],
    [t('bulkExt.fields.outboundcid'), s.outboundcid || '—'],
    [t('bulkExt.fields.busydest'), describe(s.busydest)],
    [t('bulkExt.fields.noanswerdest'), describe(s.noanswerdest)],
    [t('bulkExt.fields.notreachabledest'), describe(s.notreachabledest)],
  ];
  return (
    <Card withBorder radius="md" p="sm" data-testid={`call-settings-${extension}`}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h5">
            {t('bulkExt.summary.title')}
          </Title>
          <Anchor component={Link} to="/apps/bulkextensions" size="sm">
            {t('bulkExt.summary.change')}
          </Anchor>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4} component="dl" m={0}>
          {rows.map(([label, value]) => (
            <Group key={label} gap="xs" wrap="nowrap">
              <Text component="dt" size="sm" c="dimmed">
                {label}:
              </Text>
              <Text component="dd" size="sm" m={0}>
                {value}
              </Text>
            </Group>
          ))}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
