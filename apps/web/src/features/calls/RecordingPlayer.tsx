import type { Call } from '@centralino/contract';
import { Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCanListen } from '../../app/auth.tsx';
import { notifyError } from '../../components/notify.ts';
import { callsApi } from './api.ts';

/**
 * A call's recording: Play asks the server for a short-lived link (an <audio> element cannot send the sign-in
 * headers; a link lets it ask for byte ranges, so a long call seeks at once instead of downloading first) and plays
 * it; Download fetches the file with the headers. The server writes each to the audit log. An account that may not
 * listen sees that the call was recorded, without a player; a recording the retention removed says so.
 */
export function RecordingPlayer({ call, compact = false }: { call: Call; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const canListen = useCanListen();
  const link = useMutation({ mutationFn: () => callsApi.recordingLink(call.id), onError: notifyError });
  const download = useMutation({ mutationFn: () => callsApi.downloadRecording(call), onError: notifyError });
  if (call.recording === 'none') return compact ? null : <Text c="dimmed">{t('calls.recording.none')}</Text>;
  if (call.recording === 'deleted') {
    return (
      <Text size="sm" c="dimmed">
        {t('calls.recording.deleted')}
      </Text>
    );
  }
  if (!canListen) {
    return (
      <Text size="sm" c="dimmed">
        {t('calls.recording.notAllowed')}
      </Text>
    );
  }
  const of = (
    <VisuallyHidden>
      {' '}
      {t('calls.recording.of', {
        caller: call.callerName || call.caller || t('calls.anonymous'),
        time: new Date(call.at).toLocaleString(i18n.language),
      })}
    </VisuallyHidden>
  );
  return (
    <Stack gap={4}>
      {link.data ? (
        // biome-ignore lint/a11y/useMediaCaption: a phone call's recording has no captions to offer.
        <audio
          controls
          autoPlay
          preload="auto"
          src={link.data.url}
          aria-label={t('calls.recording.player', { time: new Date(call.at).toLocaleString(i18n.language) })}
          style={{ width: compact ? 220 : '100%' }}
        />
      ) : (
        <Group gap="xs" wrap="nowrap">
          <Button size="compact-sm" variant="light" loading={link.isPending} onClick={() => link.mutate()}>
            {t('calls.recording.play')}
            {of}
          </Button>
          <Button size="compact-sm" variant="subtle" loading={download.isPending} onClick={() => download.mutate()}>
            {t('calls.recording.download')}
            {of}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
