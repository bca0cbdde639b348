import { BULK_RECONFIGURE_CLOSE_MS, type BulkPhoneSelection, type BulkReconfigureResult } from '@centralino/contract';
import { Alert, Button, Checkbox, Group, List, Modal, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { notifyError } from '../../components/notify.ts';
import { defaultRebootTime } from '../phones/reboot.ts';
import { bulkPhonesApi } from './bulkPhonesApi.ts';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const POLL_MS = 500;

function Outcome({ result, rebootAt }: { result: BulkReconfigureResult; rebootAt: string | null }) {
  const { t } = useTranslation();
  if (result.notReconfigured.length === 0 && result.rebootsFailed.length === 0) {
    return (
      <Alert color="teal" icon={<IconCheck size={18} />} role="status" data-testid="reconfigure-success">
        {t('bulkPhones.reconfigure.success')}
        {rebootAt && result.rebootsArmed > 0 && (
          <Text size="sm" mt={4}>
            {t('bulkPhones.reconfigure.rebootsArmed', { count: result.rebootsArmed, time: rebootAt })}
          </Text>
        )}
      </Alert>
    );
  }
  return (
    <Alert
      color="yellow"
      icon={<IconAlertTriangle size={18} />}
      title={t('bulkPhones.reconfigure.partial', { done: result.reconfigured, count: result.total })}
      data-testid="reconfigure-warning"
    >
      {result.notReconfigured.length > 0 && (
        <>
          <Text size="sm" fw={600}>
            {t('bulkPhones.reconfigure.notReconfigured')}
          </Text>
          <List size="sm" spacing={2} data-testid="not-reconfigured">
            {result.notReconfigured.map((phone) => (
              <List.Item key={phone.mac}>
                <Text span ff="monospace" size="sm">
                  {phone.mac}
                </Text>
                {phone.user && ` · ${phone.user}`}
                {phone.extension && ` (${phone.extension})`}
                {` · ${t(`bulkPhones.reconfigure.reasons.${phone.reason}`)}`}
                {phone.detail && ` · ${phone.detail}`}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {rebootAt && result.rebootsArmed > 0 && (
        <Text size="sm" mt="xs">
          {t('bulkPhones.reconfigure.rebootsArmed', { count: result.rebootsArmed, time: rebootAt })}
        </Text>
      )}
      {result.rebootsFailed.length > 0 && (
        <>
          <Text size="sm" fw={600} mt="xs">
            {t('bulkPhones.reconfigure.rebootsFailed')}
          </Text>
          <List size="sm" spacing={2}>
            {result.rebootsFailed.map((phone) => (
              <List.Item key={phone.mac}>
                <Text span ff="monospace" size="sm">
                  {phone.mac}
                </Text>
                {` · ${phone.detail}`}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Alert>
  );
}

/**
 * Reconfigure: every selected phone's line is asked to fetch its configuration again, with an optional
 * delayed reboot (now rounded up to the next 5 minutes by default). Phones without a user or a line, or not
 * reached, are listed; after a full success the modal closes by itself after 2.5 s.
 */
export function ReconfigureModal({
  selection,
  count,
  onClose,
}: {
  selection: BulkPhoneSelection | undefined;
  count: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [withReboot, setWithReboot] = useState(false);
  const [time, setTime] = useState(() => defaultRebootTime(new Date()));
  const [task, setTask] = useState<string | null>(null);
  const [rebootAt, setRebootAt] = useState<string | null>(null);

  const failed = (error?: unknown) =>
    notifyError(
      t('bulkPhones.errors.reconfigure'),
      error instanceof ApiError ? error : new Error(t('bulkPhones.errors.general')),
    );
  const start = useMutation({
    mutationFn: () => {
      if (!selection) throw new Error(t('bulkPhones.errors.general'));
      const [hours = '00', minutes = '00'] = time.split(':');
      return bulkPhonesApi.startReconfigure({ selection, reboot: withReboot ? { hours, minutes } : null });
    },
    onSuccess: ({ task: id }) => {
      setRebootAt(withReboot ? time : null);
      setTask(id);
    },
    onError: failed,
  });
  const progress = useQuery({
    queryKey: ['bulk-reconfigure', task],
    queryFn: async () => {
      try {
        const state = await bulkPhonesApi.reconfigureTask(task as string);
        if (state.progress === -1) failed();
        return state;
      } catch (error) {
        failed(error);
        throw error;
      }
    },
    enabled: task !== null,
    refetchInterval: (query) => {
      const p = query.state.data?.progress;
      return p === 100 || p === -1 || query.state.status === 'error' ? false : POLL_MS;
    },
    retry: false,
  });
  const result = progress.data?.result ?? null;
  const finished = progress.data?.progress === 100 || progress.data?.progress === -1 || progress.isError;
  const fullSuccess = result !== null && result.notReconfigured.length === 0 && result.rebootsFailed.length === 0;

  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (!fullSuccess) return;
    const timer = setTimeout(() => close.current(), BULK_RECONFIGURE_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [fullSuccess]);

  const running = start.isPending || (task !== null && !finished);
  const valid = !withReboot || TIME.test(time);
  return (
    <Modal opened onClose={onClose} title={t('bulkPhones.reconfigure.title')}>
      <Stack>
        <Text size="sm">{t('bulkPhones.reconfigure.help', { count })}</Text>
        {task === null ? (
          <>
            <Checkbox
              label={t('bulkPhones.reconfigure.delayedReboot')}
              description={t('bulkPhones.reconfigure.rebootHelp')}
              checked={withReboot}
              onChange={(e) => {
                setWithReboot(e.currentTarget.checked);
                setTime(defaultRebootTime(new Date()));
              }}
            />
            {withReboot && (
              <TextInput
                type="time"
                label={t('bulkPhones.reconfigure.time')}
                value={time}
                onChange={(e) => setTime(e.currentTarget.value)}
                error={valid ? undefined : t('bulkPhones.reconfigure.invalidTime')}
              />
            )}
          </>
        ) : (
          <Progress
            value={Math.max(0, progress.data?.progress ?? 0)}
            aria-label={t('bulkPhones.reconfigure.progress')}
            animated={running}
          />
        )}
        {result && <Outcome result={result} rebootAt={rebootAt} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {task === null ? t('common.cancel') : t('common.close')}
          </Button>
          {task === null && (
            <Button disabled={!valid || !selection} loading={running} onClick={() => start.mutate()}>
              {t('bulkPhones.reconfigure.confirm')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
