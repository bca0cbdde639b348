import { Accordion, Button, Card, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCopyPlus, IconDeviceDesktop, IconSettings, IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useNavigate } from 'react-router';
import { confirmAction } from '../../components/confirm.tsx';
import { WriteButton } from '../../components/WriteControls.tsx';
import { DefaultSettingsModal } from '../phones/DefaultSettingsModal.tsx';
import { FileUploadModal } from '../phones/FileUploadModal.tsx';
import { phonesApi } from '../phones/phonesApi.ts';
import { setLeaveGuard } from '../wizard/leaveGuard.ts';
import { StepScreen } from '../wizard/StepScreen.tsx';
import { CreateModelModal } from './CreateModelModal.tsx';
import type { UploadVariable } from './fields.tsx';
import { ModelEditor } from './ModelEditor.tsx';
import { displayName, listedModels, modelSources } from './modelNames.ts';
import { modelsApi } from './modelsApi.ts';

const PATH = '/devices/models';

/** Routes that keep the model being edited; leaving them forgets it (spec §2). */
const KEEPS_MODEL = /^\/(devices|configurations)(\/|$)/;

function confirmDiscard(t: (key: string) => string) {
  return confirmAction({ title: t('models.unsavedTitle'), message: t('models.unsavedConfirm'), danger: true });
}

/** Phone models: the models phones use and the copies made here, each opening its editor. */
export function ModelsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const used = useQuery({ queryKey: ['phone-models', 'used'], queryFn: modelsApi.used });
  const all = useQuery({ queryKey: ['phone-models'], queryFn: phonesApi.models });
  const [opened, setOpened] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [creating, setCreating] = useState(false);
  const [defaultsOpen, setDefaultsOpen] = useState(false);
  // The file variable whose upload dialog is open.
  const [uploadFor, setUploadFor] = useState<UploadVariable | null>(null);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  // The wizard's step bar asks before it saves the next step; the answer then lets the navigation pass.
  useEffect(
    () =>
      setLeaveGuard(async () => {
        if (!dirtyRef.current) return true;
        const ok = await confirmDiscard(t);
        if (ok) {
          dirtyRef.current = false;
          setDirty(false);
        }
        return ok;
      }),
    [t],
  );

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirtyRef.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirmDiscard(t).then((ok) => {
      if (ok) {
        setDirty(false);
        blocker.proceed();
      } else blocker.reset();
    });
  }, [blocker, t]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // The model and defaults are read again when the administrator comes back from elsewhere.
  useEffect(
    () => () => {
      if (!KEEPS_MODEL.test(window.location.pathname)) {
        queryClient.removeQueries({ queryKey: ['model-editor'] });
        queryClient.removeQueries({ queryKey: ['phone-defaults'] });
      }
    },
    [queryClient],
  );

  const onDirtyChange = useCallback((value: boolean) => setDirty(value), []);
  const open = async (name: string | null) => {
    if (name === opened) return;
    if (dirty && !(await confirmDiscard(t))) return;
    setDirty(false);
    setOpened(name);
  };

  const toolbar = (
    <Group>
      <WriteButton leftSection={<IconCopyPlus size={16} />} onClick={() => setCreating(true)}>
        {t('models.createNew')}
      </WriteButton>
      <WriteButton variant="default" leftSection={<IconSettings size={16} />} onClick={() => setDefaultsOpen(true)}>
        {t('models.defaultSettings')}
      </WriteButton>
      <WriteButton
        variant="default"
        leftSection={<IconUpload size={16} />}
        onClick={() => setUploadFor('ringtone_file')}
      >
        {t('models.manageFiles')}
      </WriteButton>
    </Group>
  );

  let body: React.ReactNode;
  if (used.isError || all.isError) {
    body = <Text c="red">{t('models.listFailed')}</Text>;
  } else if (!used.data || !all.data) {
    body = (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  } else {
    const list = listedModels(used.data, all.data);
    body =
      list.length === 0 ? (
        <Card withBorder radius="md" p="lg" data-testid="models-empty">
          <Stack align="center" gap="xs">
            <IconDeviceDesktop size={32} />
            <Text fw={600}>{t('models.empty')}</Text>
            <Text size="sm" c="dimmed" ta="center">
              {t('models.emptyHint')}
            </Text>
            <Group>
              <WriteButton variant="default" onClick={() => setDefaultsOpen(true)}>
                {t('models.defaultSettings')}
              </WriteButton>
              <Button onClick={() => navigate('/devices/inventory')}>{t('models.setModels')}</Button>
            </Group>
          </Stack>
        </Card>
      ) : (
        <Stack gap="md">
          <Text c="dimmed">{t('models.intro')}</Text>
          {toolbar}
          <Accordion
            variant="separated"
            value={opened}
            onChange={(value) => void open(value)}
            aria-label={t('models.listLabel')}
          >
            {list.map((model) => (
              <Accordion.Item key={model.name} value={model.name} data-testid={`model-${model.name}`}>
                <Accordion.Control>
                  <Text fw={600}>{displayName(model)}</Text>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {model.name}
                  </Text>
                </Accordion.Control>
                <Accordion.Panel>
                  {opened === model.name && (
                    <ModelEditor
                      name={model.name}
                      onDirtyChange={onDirtyChange}
                      onDeleted={() => setOpened(null)}
                      onUpload={setUploadFor}
                    />
                  )}
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
          {creating && (
            <CreateModelModal
              sources={modelSources(list, all.data)}
              existing={all.data}
              onClose={() => setCreating(false)}
              onCreated={(name) => {
                setCreating(false);
                void queryClient.invalidateQueries({ queryKey: ['phone-models'] });
                void open(name);
              }}
            />
          )}
        </Stack>
      );
  }

  return (
    <StepScreen path={PATH} title={t('wizard.steps.devices_models')}>
      {body}
      {defaultsOpen && <DefaultSettingsModal onClose={() => setDefaultsOpen(false)} onModelsPage />}
      <FileUploadModal
        opened={uploadFor !== null}
        variable={uploadFor ?? undefined}
        onClose={() => setUploadFor(null)}
      />
    </StepScreen>
  );
}
