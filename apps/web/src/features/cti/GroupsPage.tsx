import { ctiGroupNameSchema, groupPermissionName } from '@centralino/contract';
import { Button, Card, Center, Group, Loader, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash, IconUsersGroup } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteActionIcon, WriteButton } from '../../components/WriteControls.tsx';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { ctiApi } from './ctiApi.ts';

const PATH = '/configurations/groups';

/** True when a group of that name exists: names that differ only in case share one presence permission. */
function groupExists(name: string, existing: readonly string[]): boolean {
  const wanted = groupPermissionName(name.trim());
  return existing.some((other) => groupPermissionName(other) === wanted);
}

export function NewGroupModal({
  opened,
  onClose,
  existing,
}: {
  opened: boolean;
  onClose: () => void;
  /** Names of the groups there are, to say a name is taken before sending it. */
  existing: readonly string[];
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const parsed = ctiGroupNameSchema.safeParse(name);
  const exists = parsed.success && groupExists(name, existing);
  const create = useMutation({
    mutationFn: () => ctiApi.createGroup(name.trim()),
    onSuccess: async () => {
      notifySuccess(t('cti.groups.saved'));
      await queryClient.invalidateQueries({ queryKey: ['cti'] });
      setName('');
      setTouched(false);
      onClose();
    },
    onError: (e) => {
      // Said next to the name, which is what the user has to change; other failures as a notification.
      if (!(e instanceof ApiError && e.code === 'group_exists')) notifyError(t('cti.groups.notSaved'), e);
    },
  });
  const serverExists = create.error instanceof ApiError && create.error.code === 'group_exists';
  const error = !touched
    ? null
    : !parsed.success
      ? name.trim()
        ? t('cti.groups.lettersDigits')
        : t('cti.groups.nameRequired')
      : exists || serverExists
        ? t('cti.groups.exists', { name: name.trim() })
        : null;
  return (
    <Modal opened={opened} onClose={onClose} title={t('cti.groups.create')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (parsed.success && !exists) create.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('cti.groups.name')}
            withAsterisk
            data-autofocus
            value={name}
            error={error}
            onChange={(e) => {
              setName(e.currentTarget.value);
              create.reset();
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('cti.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** CTI groups: who sees whom in the presence panel, and the ring groups of the PBX. */
export function GroupsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const groups = useQuery({ queryKey: ['cti', 'groups'], queryFn: ctiApi.groups });
  const [creating, setCreating] = useState(false);
  const remove = useMutation({
    mutationFn: ctiApi.deleteGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['cti'] }),
    onError: (e) => notifyError(t('cti.groups.notDeleted'), e),
  });

  if (!groups.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }

  const body = (
    <Stack gap="md">
      <Group>
        <WriteButton leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          {t('cti.groups.create')}
        </WriteButton>
      </Group>
      {groups.data.length === 0 ? (
        <Text c="dimmed">{t('cti.groups.empty')}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {groups.data.map((group) => (
            <Card key={group.id} withBorder radius="md" data-testid={`group-${group.name}`}>
              <Group justify="space-between">
                <Group gap="xs">
                  <IconUsersGroup size={20} />
                  <Text fw={600}>{group.name}</Text>
                </Group>
                <WriteActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('cti.groups.delete', { name: group.name })}
                  loading={remove.isPending && remove.variables === group.id}
                  onClick={async () => {
                    const ok = await confirmAction({
                      title: t('cti.groups.deleteTitle'),
                      message: t('cti.groups.deleteConfirm', { name: group.name }),
                      confirmLabel: t('cti.delete'),
                      danger: true,
                    });
                    if (ok) remove.mutate(group.id);
                  }}
                >
                  <IconTrash size={18} />
                </WriteActionIcon>
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
      <NewGroupModal
        opened={creating}
        onClose={() => setCreating(false)}
        existing={groups.data.map((group) => group.name)}
      />
    </Stack>
  );

  return (
    <StepScreen path={PATH} title={t('cti.groups.title')}>
      {body}
    </StepScreen>
  );
}
