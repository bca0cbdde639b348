import type { DashboardUser } from '@centralino/contract';
import { Badge, Button, Card, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import {
  IconArrowForwardUp,
  IconDeviceMobile,
  IconHeadset,
  IconInfoCircle,
  IconMailbox,
  IconMoon,
  IconPhone,
} from '@tabler/icons-react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { WriteButton } from '../../components/WriteControls.tsx';
import { extensionColor } from './statusLook.ts';

const RESETTABLE = new Set(['dnd', 'callforward', 'cellphone', 'voicemail']);

function PresenceBadge({ user }: { user: DashboardUser }) {
  const { t } = useTranslation();
  const icon =
    user.presence === 'dnd' ? (
      <IconMoon size={14} aria-hidden />
    ) : user.presence === 'voicemail' ? (
      <IconMailbox size={14} aria-hidden />
    ) : user.presence === 'callforward' || user.presence === 'cellphone' ? (
      <IconArrowForwardUp size={14} aria-hidden />
    ) : undefined;
  const color =
    user.presence === 'online'
      ? 'teal'
      : user.presence === 'dnd'
        ? 'red'
        : user.presence === 'unknown'
          ? 'gray'
          : 'blue';
  const label =
    user.presence === 'callforward'
      ? t('dashboard.presence.callforwardTo', { to: user.forwardTo })
      : t(`dashboard.presence.${user.presence}`);
  return (
    <Badge color={color} variant="light" leftSection={icon} data-testid="presence">
      {label}
    </Badge>
  );
}

/** One user of the dashboard: name, presence (with its reset) and every extension with its status. */
function UserCardView({
  user,
  onInfo,
  onReset,
}: {
  user: DashboardUser;
  onInfo: (extension: string, type: string) => void;
  onReset: (user: DashboardUser) => void;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="sm" data-testid={`dashboard-user-${user.username}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div>
            <Text fw={600} component="h3" size="md" m={0}>
              {user.name}
            </Text>
            <Text size="xs" c="dimmed">
              {user.username}
            </Text>
          </div>
          <Group gap="xs">
            <PresenceBadge user={user} />
            {RESETTABLE.has(user.presence) && (
              <WriteButton size="compact-sm" variant="light" onClick={() => onReset(user)}>
                {t('dashboard.reset')}
                <VisuallyHidden> {t('dashboard.resetOf', { name: user.name })}</VisuallyHidden>
              </WriteButton>
            )}
          </Group>
        </Group>
        <Group gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {user.extensions.map((e) => {
            const Icon = e.headset ? IconHeadset : e.type === 'mobile' ? IconDeviceMobile : IconPhone;
            return (
              <Group key={e.id} component="li" gap={4} wrap="nowrap" data-testid={`extension-${e.id}`}>
                <Badge
                  color={extensionColor(e.status)}
                  variant="light"
                  leftSection={<Icon size={14} aria-label={t(e.headset ? 'dashboard.headset' : 'dashboard.phone')} />}
                  data-status={e.status}
                >
                  {e.id} · {t(`dashboard.status.${e.status}`)}
                </Badge>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  leftSection={<IconInfoCircle size={14} aria-hidden />}
                  onClick={() => onInfo(e.id, e.type)}
                >
                  {t('dashboard.info.button')}
                  <VisuallyHidden> {e.id}</VisuallyHidden>
                </Button>
              </Group>
            );
          })}
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * Memoised: a page of 20 more (or a live reload where one user changed) draws only the cards whose data changed;
 * the query keeps the objects of unchanged users, and the page passes stable callbacks.
 */
export const UserCard = memo(UserCardView);
