import { Badge, Button, Group, Menu, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconClockHour4, IconPower, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { phonesApi } from './phonesApi.ts';
import { defaultRebootTime, type RebootTime } from './reboot.ts';

/** Reboot now, at a time, or cancel the time: one phone of the inventory (api-core §13.3). */
export function RebootMenu({
  mac,
  scheduled,
  onChanged,
}: {
  mac: string;
  scheduled: RebootTime | undefined;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [picking, setPicking] = useState(false);
  const [time, setTime] = useState(() => defaultRebootTime(new Date()));
  const now = useMutation({
    mutationFn: () => phonesApi.reboot({ [mac]: {} }),
    onSuccess: () => notifySuccess(t('phones.reboot.sent', { mac })),
    onError: (e) => notifyError(t('phones.reboot.failed', { mac }), e),
  });
  const schedule = useMutation({
    mutationFn: (at: RebootTime) => phonesApi.reboot({ [mac]: at }),
    onSuccess: (_, at) => {
      notifySuccess(t('phones.reboot.scheduledAt', { mac, time: `${at.hours}:${at.minutes}` }));
      setPicking(false);
      onChanged();
    },
    onError: (e) => notifyError(t('phones.reboot.scheduleFailed'), e),
  });
  const cancel = useMutation({
    mutationFn: () => phonesApi.cancelDelayedReboot([mac]),
    onSuccess: () => {
      notifySuccess(t('phones.reboot.cancelled', { mac }));
      onChanged();
    },
    onError: (e) => notifyError(t('phones.rebootCancelFailed'), e),
  });
  const valid = /^([01]\d|2[0-3]):[0-5]\d$/.test(time);
  return (
    <Group gap="xs" wrap="nowrap">
      {scheduled && (
        <Badge variant="light" leftSection={<IconClockHour4 size={12} />}>
          {t('phones.reboot.badge', { time: `${scheduled.hours}:${scheduled.minutes}` })}
        </Badge>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <WriteButton
            variant="default"
            leftSection={<IconPower size={16} />}
            loading={now.isPending || cancel.isPending}
            aria-label={t('phones.reboot.menuFor', { mac })}
          >
            {t('phones.reboot.menu')}
          </WriteButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconPower size={14} />} onClick={() => now.mutate()}>
            {t('phones.reboot.now')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconClockHour4 size={14} />}
            onClick={() => {
              setTime(defaultRebootTime(new Date()));
              setPicking(true);
            }}
          >
            {t('phones.reboot.schedule')}
          </Menu.Item>
          {scheduled && (
            <Menu.Item leftSection={<IconX size={14} />} color="red.8" onClick={() => cancel.mutate()}>
              {t('phones.reboot.cancel')}
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={picking} onClose={() => setPicking(false)} title={t('phones.reboot.scheduleTitle', { mac })}>
        <Stack>
          <Text size="sm">{t('phones.reboot.scheduleHelp')}</Text>
          <TextInput
            type="time"
            label={t('phones.reboot.time')}
            value={time}
            onChange={(e) => setTime(e.currentTarget.value)}
            error={valid ? undefined : t('phones.reboot.invalidTime')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPicking(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              disabled={!valid}
              loading={schedule.isPending}
              onClick={() => {
                const [hours = '00', minutes = '00'] = time.split(':');
                schedule.mutate({ hours, minutes });
              }}
            >
              {t('phones.reboot.confirmSchedule')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Group>
  );
}
