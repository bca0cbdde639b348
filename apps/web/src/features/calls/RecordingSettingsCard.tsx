import {
  type CallRecordingSettings,
  callRecordingSettingsSchema,
  localiseValidationMessage,
  RECORDING_FREE_SPACE_WARNING_DEFAULT_MB,
  RECORDING_RETENTION_DEFAULT_DAYS,
  recordingNotices,
} from '@centralino/contract';
import { Alert, Button, Card, Group, NumberInput, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCanWrite } from '../../app/auth.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { flowsApi } from '../flows/flowsApi.ts';
import { formatBytes, recordingsApi } from './recordingsApi.ts';

const DEFAULTS: CallRecordingSettings = {
  retention_days: RECORDING_RETENTION_DEFAULT_DAYS,
  free_space_warning_mb: RECORDING_FREE_SPACE_WARNING_DEFAULT_MB,
  notice: 'prompt',
  notice_recording: null,
};

/** Call recordings' retention, the dashboard's free-space warning and the notice callers hear (Settings). */
export function RecordingSettingsCard() {
  const { t, i18n } = useTranslation();
  const canWrite = useCanWrite();
  const client = useQueryClient();
  const stored = useQuery({ queryKey: ['call-recordings', 'settings'], queryFn: recordingsApi.settings });
  const status = useQuery({ queryKey: ['call-recordings', 'status'], queryFn: recordingsApi.status });
  const prompts = useQuery({ queryKey: ['recordings'], queryFn: flowsApi.recordings });
  const [form, setForm] = useState<CallRecordingSettings>(DEFAULTS);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (stored.data) setForm(stored.data);
  }, [stored.data]);
  const parsed = callRecordingSettingsSchema.safeParse(form);
  const issue = (field: keyof CallRecordingSettings) => {
    const message =
      touched && !parsed.success ? parsed.error.issues.find((i) => i.path[0] === field)?.message : undefined;
    return message && localiseValidationMessage(i18n.resolvedLanguage === 'it' ? 'it' : 'en', message);
  };
  const save = useMutation({
    mutationFn: () => recordingsApi.saveSettings(callRecordingSettingsSchema.parse(form)),
    onSuccess: () => {
      notifySuccess(t('callRecording.saved'));
      void client.invalidateQueries({ queryKey: ['call-recordings'] });
    },
    onError: (error) => notifyError(t('callRecording.saveFailed'), error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (parsed.success) save.mutate();
  };
  const number = (v: string | number) => (typeof v === 'number' ? v : Number.parseInt(v, 10));
  return (
    <Card withBorder radius="md" maw={560}>
      <form onSubmit={submit} noValidate aria-labelledby="recording-settings-title">
        <Stack gap="sm">
          <Title order={2} size="h4" id="recording-settings-title">
            {t('callRecording.settingsTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('callRecording.settingsIntro')}
          </Text>
          <NumberInput
            label={t('callRecording.retention')}
            description={t('callRecording.retentionHelp')}
            min={0}
            max={3650}
            allowDecimal={false}
            value={form.retention_days}
            onChange={(v) => setForm({ ...form, retention_days: number(v) })}
            error={issue('retention_days')}
            disabled={!canWrite}
          />
          <NumberInput
            label={t('callRecording.freeSpace')}
            min={0}
            allowDecimal={false}
            value={form.free_space_warning_mb}
            onChange={(v) => setForm({ ...form, free_space_warning_mb: number(v) })}
            error={issue('free_space_warning_mb')}
            disabled={!canWrite}
          />
          <Select
            label={t('callRecording.notice')}
            data={recordingNotices.map((n) => ({ value: n, label: t(`callRecording.notices.${n}`) }))}
            value={form.notice}
            onChange={(v) => setForm({ ...form, notice: (v ?? 'none') as CallRecordingSettings['notice'] })}
            allowDeselect={false}
            disabled={!canWrite}
          />
          {form.notice === 'prompt' && status.data && !status.data.prompt_available && (
            <Alert color="yellow">{t('callRecording.promptMissing')}</Alert>
          )}
          {form.notice === 'recording' && (
            <Select
              label={t('callRecording.noticeRecording')}
              data={(prompts.data ?? []).map((r) => ({ value: String(r.id), label: r.displayname }))}
              value={form.notice_recording === null ? null : String(form.notice_recording)}
              onChange={(v) => setForm({ ...form, notice_recording: v ? Number(v) : null })}
              error={issue('notice_recording')}
              disabled={!canWrite}
            />
          )}
          {canWrite && (
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                {t('callRecording.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}

/** The dashboard's card: disk used by recordings, free space, and a warning below the threshold. */
export function RecordingDiskCard() {
  const { t, i18n } = useTranslation();
  const status = useQuery({ queryKey: ['call-recordings', 'status'], queryFn: recordingsApi.status });
  const settings = useQuery({ queryKey: ['call-recordings', 'settings'], queryFn: recordingsApi.settings });
  if (!status.data) return null;
  const s = status.data;
  const size = (n: number) => formatBytes(n, i18n.language);
  return (
    <Card withBorder radius="md" aria-labelledby="recording-disk-title" component="section">
      <Stack gap={4}>
        <Title order={2} size="h4" id="recording-disk-title">
          {t('callRecording.cardTitle')}
        </Title>
        <Text size="sm">{t('callRecording.used', { size: size(s.bytes), count: s.files })}</Text>
        <Text size="sm">
          {s.free_bytes === null
            ? t('callRecording.freeUnknown')
            : t('callRecording.free', { size: size(s.free_bytes) })}
        </Text>
        <Text size="sm" c="dimmed">
          {s.retention_days === 0
            ? t('callRecording.keptForever')
            : t('callRecording.retentionDays', { count: s.retention_days })}
        </Text>
        {s.low_space && (
          <Alert color="orange" role="alert">
            {t('callRecording.lowSpace', {
              size: size((settings.data?.free_space_warning_mb ?? 0) * 1024 * 1024),
            })}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
