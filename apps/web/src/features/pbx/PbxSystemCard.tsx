import { Alert, Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconFileText } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PbxLogModal } from './PbxLogModal.tsx';
import { pbxSystemApi, stateColor, uptimeText } from './pbxSystem.ts';

/** How often the dashboard asks how the phone system is (a restart or a failure shows within this). */
const SYSTEM_POLL_MS = 5000;

/** The phone system on the dashboard: who runs Asterisk, its state, why it failed, its ports and its log. */
export function PbxSystemCard() {
  const { t, i18n } = useTranslation();
  const [logOpen, setLogOpen] = useState(false);
  const { data } = useQuery({
    // The server words the problem and the warnings in the reader's language: asked again when it changes.
    queryKey: ['pbx-system', i18n.language],
    queryFn: pbxSystemApi.status,
    refetchInterval: SYSTEM_POLL_MS,
  });
  if (!data) return null;
  const facts = [
    data.version,
    data.uptimeSeconds !== null ? t('pbxSystem.up', { time: uptimeText(t, data.uptimeSeconds) }) : null,
    data.restarts > 0 ? t('pbxSystem.restarts', { count: data.restarts }) : null,
  ].filter(Boolean);
  return (
    <Card withBorder component="section" aria-labelledby="pbx-system-title" data-testid="pbx-system">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Group gap="sm">
            <Title order={2} size="h3" id="pbx-system-title">
              {t('pbxSystem.title')}
            </Title>
            <Badge color={stateColor(data.state)} variant="light" data-testid="pbx-system-state">
              {t(`pbxSystem.state.${data.state}`)}
            </Badge>
          </Group>
          {data.mode === 'managed' && (
            <Button
              variant="default"
              size="xs"
              leftSection={<IconFileText size={16} aria-hidden />}
              onClick={() => setLogOpen(true)}
            >
              {t('pbxSystem.showLog')}
            </Button>
          )}
        </Group>
        <Text size="sm">{t(`pbxSystem.mode.${data.mode}`)}</Text>
        {facts.length > 0 && <Text size="sm">{facts.join(' · ')}</Text>}
        {data.mode !== 'off' && (
          <Text size="sm">
            {t('pbxSystem.ports', {
              sip: data.ports.sip,
              tls: data.ports.tls,
              wss: data.ports.wss,
              rtpStart: data.ports.rtpStart,
              rtpEnd: data.ports.rtpEnd,
            })}
          </Text>
        )}
        {data.problem && (
          <Alert
            color="red"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('pbxSystem.failedTitle')}
            data-testid="pbx-system-problem"
          >
            {data.problem.detail}
          </Alert>
        )}
        {data.warnings.length > 0 && (
          <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} title={t('pbxSystem.warningsTitle')}>
            <List size="sm">
              {data.warnings.map((w) => (
                <List.Item key={w}>{w}</List.Item>
              ))}
            </List>
          </Alert>
        )}
      </Stack>
      <PbxLogModal opened={logOpen} onClose={() => setLogOpen(false)} />
    </Card>
  );
}
