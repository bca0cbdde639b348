import { type CtiContext, type CtiProfile, groupsNotEnabled } from '@centralino/contract';
import { Accordion, Alert, Button, Center, Group, Loader, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteButton } from '../../components/WriteControls.tsx';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { useEngine, useWizardState } from '../wizard/useWizard.ts';
import { ctiApi } from './ctiApi.ts';
import { ProfilePanel } from './ProfilePanel.tsx';

const PATH = '/configurations/profiles';

function NewProfileModal({
  opened,
  onClose,
  profiles,
}: {
  opened: boolean;
  onClose: () => void;
  profiles: { id: number; name: string }[];
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [from, setFrom] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const create = useMutation({
    mutationFn: async () => {
      if (from) {
        const source = (await ctiApi.profiles()).find((p) => String(p.id) === from);
        if (!source) throw new Error(t('cti.profiles.sourceGone'));
        return ctiApi.createProfile({
          name: name.trim(),
          macro_permissions: source.macro_permissions,
          outbound_routes_permissions: source.outbound_routes_permissions,
        });
      }
      const { outbound_routes: _routes, ...macros } = await ctiApi.template();
      return ctiApi.createProfile({
        name: name.trim(),
        macro_permissions: macros as Parameters<typeof ctiApi.createProfile>[0]['macro_permissions'],
      });
    },
    onSuccess: async () => {
      notifySuccess(t('cti.profiles.saved'));
      await queryClient.invalidateQueries({ queryKey: ['cti'] });
      setName('');
      setFrom(null);
      setTouched(false);
      onClose();
    },
    onError: (e) => notifyError(t('cti.profiles.notSaved'), e),
  });
  const missing = touched && name.trim() === '';
  return (
    <Modal opened={opened} onClose={onClose} title={t('cti.profiles.create')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (name.trim()) create.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('cti.profiles.name')}
            withAsterisk
            data-autofocus
            maxLength={64}
            value={name}
            error={missing ? t('cti.profiles.nameRequired') : null}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Select
            label={t('cti.profiles.duplicateFrom')}
            placeholder={t('cti.profiles.blank')}
            clearable
            data={profiles.map((p) => ({ value: String(p.id), label: p.name }))}
            value={from}
            onChange={setFrom}
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

/** CTI profiles: what the users of each profile may do in the CTI application and on the PBX. */
export function ProfilesPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const engine = useEngine();
  const wizard = useWizardState();
  const profiles = useQuery({ queryKey: ['cti', 'profiles'], queryFn: ctiApi.profiles });
  const groups = useQuery({ queryKey: ['cti', 'groups'], queryFn: ctiApi.groups });
  const licence = useQuery({ queryKey: ['cti', 'licence'], queryFn: ctiApi.licenceActive });
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<string[]>([]);

  if (!profiles.data || !groups.data || licence.data === undefined || !engine.data || !wizard.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  const ctx: CtiContext = { engine: engine.data, licenceActive: licence.data };
  const disabledGroups = groupsNotEnabled(profiles.data, groups.data);
  const privacy = () =>
    notifications.show({ color: 'yellow', title: t('cti.privacyTitle'), message: t('cti.privacy'), autoClose: 8000 });

  const body = (
    <Stack gap="md">
      {disabledGroups.length > 0 && (
        <Alert color="yellow" icon={<IconAlertTriangle />} title={t('cti.groupsWarning')}>
          {t('cti.groupsWarningDetail', { groups: disabledGroups.map((g) => g.name).join(', ') })}
        </Alert>
      )}
      <Group>
        <WriteButton leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          {t('cti.profiles.create')}
        </WriteButton>
      </Group>
      {profiles.data.length === 0 ? (
        <Text c="dimmed">{t('cti.profiles.empty')}</Text>
      ) : (
        <Accordion multiple variant="separated" value={open} onChange={setOpen}>
          {profiles.data.map((profile) => (
            <Accordion.Item key={profile.id} value={String(profile.id)}>
              <Accordion.Control>
                <Text fw={600}>{profile.name}</Text>
              </Accordion.Control>
              <Accordion.Panel>
                {open.includes(String(profile.id)) && (
                  <ProfilePanel
                    profile={profile}
                    ctx={ctx}
                    onPrivacy={privacy}
                    onDeleted={() => void queryClient.invalidateQueries({ queryKey: ['cti'] })}
                    onSaved={(saved) =>
                      queryClient.setQueryData<CtiProfile[]>(['cti', 'profiles'], (list) =>
                        list?.map((p) => (p.id === saved.id ? saved : p)),
                      )
                    }
                  />
                )}
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
      <NewProfileModal opened={creating} onClose={() => setCreating(false)} profiles={profiles.data} />
    </Stack>
  );

  return (
    <StepScreen path={PATH} title={t('cti.profiles.title')}>
      {body}
    </StepScreen>
  );
}
