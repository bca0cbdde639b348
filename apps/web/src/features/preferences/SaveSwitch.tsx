import { Group, Loader, Switch } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A switch that saves at once: spinner, then a tick or a cross; on error it goes back. */
export function SaveSwitch({
  label,
  checked,
  disabled,
  onSave,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onSave: (value: boolean) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(checked);
  const [state, setState] = useState<'idle' | 'saving' | 'ok' | 'error'>('idle');
  useEffect(() => setValue(checked), [checked]);
  const toggle = async (next: boolean) => {
    setValue(next);
    setState('saving');
    try {
      await onSave(next);
      setState('ok');
    } catch {
      setValue(!next);
      setState('error');
    }
  };
  return (
    <Group gap="xs" wrap="nowrap">
      <Switch
        label={label}
        checked={value}
        disabled={disabled || state === 'saving'}
        onChange={(e) => void toggle(e.currentTarget.checked)}
      />
      {state === 'saving' && <Loader size={14} aria-label={t('preferences.saving')} />}
      {state === 'ok' && (
        <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-label={t('preferences.saved')} />
      )}
      {state === 'error' && (
        <IconX size={16} color="var(--mantine-color-red-6)" aria-label={t('preferences.notSaved')} />
      )}
    </Group>
  );
}
