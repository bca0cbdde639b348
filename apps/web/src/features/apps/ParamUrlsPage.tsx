import {
  localiseValidationMessage,
  PARAMURL_PLACEHOLDERS,
  type ParamUrl,
  paramUrlProfileChoices,
  paramUrlProfileIds,
  paramUrlWriteSchema,
  type UiLanguage,
} from '@centralino/contract';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Code,
  Group,
  List,
  Loader,
  Modal,
  MultiSelect,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { ctiApi } from '../cti/ctiApi.ts';
import { appsApi } from './appsApi.ts';
import { CopyUrlButton } from './CopyUrlButton.tsx';

type Profile = { id: number; name: string };

function ParamUrlModal({
  editing,
  urls,
  profiles,
  onClose,
}: {
  editing?: ParamUrl;
  urls: ParamUrl[];
  profiles: Profile[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(editing?.url ?? '');
  const [selected, setSelected] = useState<string[]>(editing ? paramUrlProfileIds(editing).map(String) : []);
  const [onlyQueues, setOnlyQueues] = useState(editing?.only_queues ?? false);
  const [touched, setTouched] = useState(false);
  const choices = paramUrlProfileChoices(profiles, urls, editing?.id);
  const noneFree = choices.every((c) => c.disabled);
  const body = { url: url.trim(), profiles: selected, only_queues: onlyQueues };
  const parsed = paramUrlWriteSchema.safeParse(body);
  const lang = (i18n.language === 'it' ? 'it' : 'en') as UiLanguage;
  const urlIssue = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === 'url');
  const save = useMutation({
    mutationFn: async () => {
      if (editing) await appsApi.updateParamUrl(editing.id, body);
      else await appsApi.createParamUrl(body);
    },
    onSuccess: () => {
      notifySuccess(t('apps.paramurl.saved'));
      void queryClient.invalidateQueries({ queryKey: ['apps', 'paramurls'] });
      onClose();
    },
    onError: (e) => notifyError(t('apps.paramurl.notSaved'), e),
  });
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={editing ? t('apps.paramurl.modal.modify') : t('apps.paramurl.modal.create')}
    >
      <Stack gap="sm">
        <TextInput
          label={t('apps.paramurl.modal.url')}
          required
          placeholder="https://crm.example/call?number=$CALLER_NUMBER"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={touched && urlIssue ? localiseValidationMessage(lang, urlIssue.message) : undefined}
        />
        <div>
          <Text size="sm">{t('apps.paramurl.modal.placeholders')}</Text>
          <List size="sm" data-testid="paramurl-placeholders">
            {PARAMURL_PLACEHOLDERS.map((p) => (
              <List.Item key={p}>
                <Code>{p}</Code> {t(`apps.paramurl.placeholder.${p.slice(1)}`)}
              </List.Item>
            ))}
          </List>
        </div>
        {noneFree ? (
          <Alert color="yellow" title={t('apps.paramurl.noProfile')}>
            {t('apps.paramurl.noProfileHelp')}
          </Alert>
        ) : null}
        <MultiSelect
          label={t('apps.paramurl.modal.profiles')}
          description={t('apps.paramurl.modal.profilesHelp')}
          required
          data={choices}
          value={selected}
          onChange={setSelected}
        />
        <Switch
          label={t('apps.paramurl.onlyQueues')}
          checked={onlyQueues}
          onChange={(e) => setOnlyQueues(e.currentTarget.checked)}
        />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button disabled={!parsed.success} loading={save.isPending} onClick={() => save.mutate()}>
            {t('apps.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ParamUrlItem({ item, profiles, onModify }: { item: ParamUrl; profiles: Profile[]; onModify: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => appsApi.removeParamUrl(item.id),
    onSuccess: () => {
      notifySuccess(t('apps.paramurl.deleted'));
      void queryClient.invalidateQueries({ queryKey: ['apps', 'paramurls'] });
    },
    onError: (e) => notifyError(t('apps.paramurl.notDeleted'), e),
  });
  const names = paramUrlProfileIds(item).map((id) => profiles.find((p) => p.id === id)?.name ?? String(id));
  return (
    <Card withBorder radius="md" p="md" data-testid="paramurl" component="article" aria-label={item.url}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ wordBreak: 'break-all' }} data-testid="paramurl-url">
            {item.url}
          </Text>
          <CopyUrlButton text={item.url} label={t('apps.paramurl.copy')} />
        </Group>
        <Group gap={6}>
          <Text size="sm">{t('apps.paramurl.profiles')}:</Text>
          {names.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('apps.paramurl.noProfiles')}
            </Text>
          ) : (
            names.map((n) => (
              <Badge key={n} variant="light">
                {n}
              </Badge>
            ))
          )}
        </Group>
        <Text size="sm">
          {t('apps.paramurl.onlyQueues')}: {item.only_queues ? t('apps.yes') : t('apps.no')}
        </Text>
        <Group gap="xs">
          <WriteButton variant="default" size="xs" onClick={onModify}>
            {t('apps.modify')}
          </WriteButton>
          <DeleteButton
            label={t('apps.delete')}
            title={t('apps.paramurl.deleteTitle')}
            message={t('apps.paramurl.deleteMessage', { url: item.url })}
            loading={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        </Group>
      </Stack>
    </Card>
  );
}

/** /apps/paramurl: the URLs the CTI client opens on incoming calls, per profile (contract api-admin §8). */
export function ParamUrlsPage() {
  const { t } = useTranslation();
  const urls = useQuery({ queryKey: ['apps', 'paramurls'], queryFn: appsApi.paramUrls });
  const profiles = useQuery({ queryKey: ['apps', 'profiles'], queryFn: ctiApi.profiles });
  const [open, setOpen] = useState<{ editing?: ParamUrl } | null>(null);
  const profileList: Profile[] = (profiles.data ?? []).map((p) => ({ id: p.id, name: p.name }));
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('apps.paramurl.title')}
        </Title>
        <WriteButton
          leftSection={<IconPlus size={16} />}
          disabled={!urls.data || !profiles.data}
          onClick={() => setOpen({})}
        >
          {t('apps.paramurl.create')}
        </WriteButton>
      </Group>
      <Text c="dimmed">{t('apps.paramurl.intro')}</Text>
      {urls.isPending || profiles.isPending ? (
        <Center>
          <Loader aria-label={t('app.loading')} />
        </Center>
      ) : urls.isError || profiles.isError ? (
        <Alert color="red" title={t('apps.loadFailed')}>
          {(urls.error ?? profiles.error)?.message}
        </Alert>
      ) : urls.data.length === 0 ? (
        <Text>{t('apps.paramurl.empty')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {urls.data.map((item) => (
            <ParamUrlItem
              key={item.id}
              item={item}
              profiles={profileList}
              onModify={() => setOpen({ editing: item })}
            />
          ))}
        </SimpleGrid>
      )}
      {open && urls.data && (
        <ParamUrlModal editing={open.editing} urls={urls.data} profiles={profileList} onClose={() => setOpen(null)} />
      )}
    </Stack>
  );
}
