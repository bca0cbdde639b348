import type { ProvModel } from '@centralino/contract';
import { Accordion, Center, Group, Loader, Menu, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconDots, IconRestore, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/confirm.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { WriteActionIcon, WriteButton, WriteFieldset } from '../../components/WriteControls.tsx';
import { phonesApi } from '../phones/phonesApi.ts';
import { modelCapabilities } from './capabilities.ts';
import { EditorContext, type EditorState, type UploadVariable } from './fields.tsx';
import { EditorInfo, ExpansionModules, KeyList, LineKeysInfo } from './KeySections.tsx';
import { hasOriginals } from './modelNames.ts';
import {
  type Edits,
  hasUnsavedChanges,
  listValue,
  type ModelLayers,
  resetToOriginalPayload,
  savePayload,
  textValue,
  withEdit,
} from './modelState.ts';
import { modelQueryKey, modelsApi } from './modelsApi.ts';
import {
  DisplaySection,
  NetworkSection,
  PhonebookSection,
  PreferencesSection,
  vlanError,
} from './SettingsSections.tsx';

type Section = 'softKeys' | 'lineKeys' | 'expansionKeys' | 'display' | 'preferences' | 'phonebook' | 'network';

function Editor({
  model,
  globals,
  onDirtyChange,
  onDeleted,
  onUpload,
}: {
  model: ProvModel;
  globals: Record<string, string>;
  onDirtyChange: (dirty: boolean) => void;
  onDeleted: () => void;
  onUpload?: (variable: UploadVariable) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [edits, setEdits] = useState<Edits>({});
  const [section, setSection] = useState<Section | null>(null);
  const layers: ModelLayers = useMemo(() => ({ stored: model.variables, globals }), [model.variables, globals]);
  const caps = useMemo(() => modelCapabilities(model.variables, globals), [model.variables, globals]);
  const dirty = hasUnsavedChanges(edits, layers);
  const name = model.display_name || model.name;

  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  const editor: EditorState = useMemo(
    () => ({
      layers,
      edits,
      set: (key, value, kind) =>
        setEdits((current) =>
          withEdit(current, key, value, kind === 'list' ? listValue(key, layers) : textValue(key, layers)),
        ),
      onUpload,
    }),
    [layers, edits, onUpload],
  );

  const saved = (next: ProvModel, message: string) => {
    queryClient.setQueryData(modelQueryKey(model.name), next);
    void queryClient.invalidateQueries({ queryKey: ['phone-models'] });
    setEdits({});
    notifySuccess(message);
  };

  const save = useMutation({
    mutationFn: () =>
      modelsApi.patch(model.name, {
        ...(model.display_name ? { display_name: model.display_name } : {}),
        variables: savePayload(edits, layers),
      }),
    onSuccess: (next) => saved(next, t('models.saved')),
    onError: (e) => notifyError(t('models.saveFailed'), e),
  });
  const resetOriginal = useMutation({
    mutationFn: async () => {
      const original = await modelsApi.original(model.name);
      return modelsApi.patch(model.name, resetToOriginalPayload(model.variables, original));
    },
    onSuccess: (next) => saved(next, t('models.resetDone')),
    onError: (e) => notifyError(t('models.resetFailed'), e),
  });
  const remove = useMutation({
    mutationFn: () => modelsApi.remove(model.name),
    onSuccess: () => {
      notifySuccess(t('models.deleted'));
      onDirtyChange(false);
      queryClient.removeQueries({ queryKey: modelQueryKey(model.name) });
      void queryClient.invalidateQueries({ queryKey: ['phone-models'] });
      onDeleted();
    },
    onError: (e) => notifyError(t('models.deleteFailed'), e),
  });

  const invalid =
    vlanError(textValue('vlan_id_phone', layers, edits)) || vlanError(textValue('vlan_id_pcport', layers, edits));
  const busy = save.isPending || resetOriginal.isPending || remove.isPending;

  const onSave = async () => {
    const ok = await confirmAction({ title: t('models.saveTitle'), message: t('models.saveConfirm', { name }) });
    if (ok) save.mutate();
  };
  const onCancelChanges = async () => {
    const ok = await confirmAction({ title: t('models.cancelTitle'), message: t('models.cancelConfirm', { name }) });
    if (ok) {
      setEdits({});
      notifySuccess(t('models.canceled'));
    }
  };
  const onResetOriginal = async () => {
    const ok = await confirmAction({
      title: t('models.resetTitle'),
      message: t('models.resetConfirm', { name }),
      danger: true,
    });
    if (ok) resetOriginal.mutate();
  };
  const onDelete = async () => {
    const ok = await confirmAction({
      title: t('models.deleteTitle'),
      message: t('models.deleteConfirm', { name }),
      danger: true,
    });
    if (ok) remove.mutate();
  };

  const item = (value: Section, title: string, content: () => React.ReactNode) => (
    <Accordion.Item value={value} key={value}>
      <Accordion.Control>{title}</Accordion.Control>
      {/* Built when opened: a model may have over a hundred keys. */}
      <Accordion.Panel>
        <WriteFieldset>{section === value && content()}</WriteFieldset>
      </Accordion.Panel>
    </Accordion.Item>
  );

  return (
    <EditorContext.Provider value={editor}>
      <Stack gap="md" data-testid={`model-editor-${model.name}`}>
        <EditorInfo />
        <Accordion variant="separated" value={section} onChange={(value) => setSection(value as Section | null)}>
          {caps.softKeys.count > 0 &&
            item('softKeys', t('models.sections.softKeys'), () => (
              <KeyList kind="softkey" count={caps.softKeys.count} types={caps.softKeys.types} />
            ))}
          {caps.lineKeys.count > 0 &&
            item('lineKeys', t('models.sections.lineKeys'), () => (
              <Stack gap="sm">
                <LineKeysInfo />
                <KeyList kind="linekey" count={caps.lineKeys.count} types={caps.lineKeys.types} />
              </Stack>
            ))}
          {caps.expansion.modules > 0 &&
            item('expansionKeys', t('models.sections.expansionKeys'), () => (
              <ExpansionModules
                modules={caps.expansion.modules}
                keysPerModule={caps.expansion.count}
                types={caps.expansion.types}
              />
            ))}
          {item('display', t('models.sections.display'), () => (
            <DisplaySection caps={caps} />
          ))}
          {item('preferences', t('models.sections.preferences'), () => (
            <PreferencesSection caps={caps} />
          ))}
          {item('phonebook', t('models.sections.phonebook'), () => (
            <PhonebookSection caps={caps} />
          ))}
          {item('network', t('models.sections.network'), () => (
            <NetworkSection />
          ))}
        </Accordion>
        <Group justify="space-between">
          <Text size="sm" c={dirty ? 'var(--mantine-color-orange-light-color)' : 'dimmed'}>
            {dirty ? t('models.unsaved') : t('models.noChanges')}
          </Text>
          <Group gap="xs">
            <Menu position="bottom-end">
              <Menu.Target>
                <WriteActionIcon variant="default" size="lg" aria-label={t('models.actions')} disabled={busy}>
                  <IconDots size={18} />
                </WriteActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item leftSection={<IconArrowBackUp size={16} />} disabled={!dirty} onClick={onCancelChanges}>
                  {t('models.resetSaved')}
                </Menu.Item>
                {hasOriginals(model.name) ? (
                  <Menu.Item leftSection={<IconRestore size={16} />} onClick={onResetOriginal}>
                    {t('models.resetOriginal')}
                  </Menu.Item>
                ) : (
                  <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
                    {t('models.delete')}
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
            <WriteButton onClick={onSave} disabled={!dirty || invalid} loading={save.isPending}>
              {t('models.save')}
            </WriteButton>
          </Group>
        </Group>
      </Stack>
    </EditorContext.Provider>
  );
}

/** Editor of one model: loads the model's own variables and the defaults under them. */
export function ModelEditor({
  name,
  onDirtyChange,
  onDeleted,
  onUpload,
}: {
  name: string;
  onDirtyChange: (dirty: boolean) => void;
  onDeleted: () => void;
  onUpload?: (variable: UploadVariable) => void;
}) {
  const { t } = useTranslation();
  const model = useQuery({ queryKey: modelQueryKey(name), queryFn: () => modelsApi.get(name) });
  const defaults = useQuery({ queryKey: ['phone-defaults'], queryFn: phonesApi.defaults });
  if (model.isError || defaults.isError) {
    return <Text c="red">{t('models.loadFailed')}</Text>;
  }
  if (!model.data || !defaults.data) {
    return (
      <Center p="md">
        <Loader size="sm" aria-label={t('app.loading')} />
      </Center>
    );
  }
  return (
    <Editor
      model={model.data}
      globals={defaults.data}
      onDirtyChange={onDirtyChange}
      onDeleted={onDeleted}
      onUpload={onUpload}
    />
  );
}
