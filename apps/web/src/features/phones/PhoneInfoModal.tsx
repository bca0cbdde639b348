import { canonicalMac } from '@centralino/contract';
import {
  ActionIcon,
  Badge,
  Center,
  Code,
  CopyButton,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useCanWrite } from '../../app/auth.tsx';
import { CREDENTIAL_HINT_ID } from '../../components/WriteControls.tsx';
import { phonesApi } from './phonesApi.ts';

/** A URL with a button that copies it. */
export function CopyableUrl({ url, label }: { url: string; label: string }) {
  const { t } = useTranslation();
  // A provisioning address carries the phone's token, which opens its SIP credentials: administrators only.
  if (!useCanWrite()) {
    return (
      <Code aria-label={label} aria-describedby={CREDENTIAL_HINT_ID}>
        {t('readOnly.hidden')}
      </Code>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code style={{ wordBreak: 'break-all' }} aria-label={label}>
        {url}
      </Code>
      <CopyButton value={url}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('phones.info.copied') : t('phones.info.copy')} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              aria-label={t('phones.info.copyLabel', { label })}
            >
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** Provisioning information of one phone: what it is, where it fetches its configuration, whom it serves. */
export function PhoneInfoModal({
  mac,
  vendor,
  modelName,
  onClose,
}: {
  mac: string;
  vendor: string;
  modelName: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = useQuery({ queryKey: ['phone', mac], queryFn: () => phonesApi.phone(mac) });
  const links = useQuery({ queryKey: ['phone-links'], queryFn: phonesApi.links });
  const link = links.data?.find((row) => row.mac && canonicalMac(row.mac) === mac);

  let body: React.ReactNode;
  if (phone.isError) {
    body = (
      <Text c="red" role="alert">
        {t('phones.info.loadFailed')}
      </Text>
    );
  } else if (!phone.data) {
    body = (
      <Center p="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  } else {
    const p = phone.data;
    // Until the phone has fetched its configuration once, its first-access token is still in force.
    const pending = !!p.provisioning_url1;
    const row = (label: string, value: React.ReactNode) => (
      <Table.Tr>
        <Table.Th w={200}>{label}</Table.Th>
        <Table.Td>{value}</Table.Td>
      </Table.Tr>
    );
    body = (
      <Stack gap="md">
        <Table data-testid="phone-info" verticalSpacing="xs">
          <Table.Tbody>
            {row(t('phones.mac'), <Text ff="monospace">{p.mac}</Text>)}
            {row(t('phones.vendor'), vendor)}
            {row(t('phones.model'), modelName ?? t('phones.noModel'))}
            {row(
              t('phones.info.extension'),
              links.isPending ? (
                <Loader size="xs" />
              ) : (
                (link?.extension ?? <Text c="dimmed">{t('phones.info.notLinked')}</Text>)
              ),
            )}
            {row(
              t('phones.info.status'),
              <Badge color={pending ? 'yellow' : 'teal'} variant="light">
                {pending ? t('phones.info.pending') : t('phones.info.completed')}
              </Badge>,
            )}
          </Table.Tbody>
        </Table>
        <Stack gap={4}>
          <Text fw={600} size="sm">
            {t('phones.info.urls')}
          </Text>
          <Text size="sm" c="dimmed">
            {t('phones.info.urlsHint')}
          </Text>
          {p.provisioning_url1 && (
            <Stack gap={2}>
              <Text size="sm">{t('phones.info.url1')}</Text>
              <CopyableUrl url={p.provisioning_url1} label={t('phones.info.url1')} />
            </Stack>
          )}
          <Stack gap={2}>
            <Text size="sm">{t('phones.info.url2')}</Text>
            <CopyableUrl url={p.provisioning_url2} label={t('phones.info.url2')} />
          </Stack>
        </Stack>
      </Stack>
    );
  }
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('phones.info.title', { mac })}
      size="lg"
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {body}
    </Modal>
  );
}
