import { CALL_CLASSES, CALL_PERMISSION_INHERIT, type CallClass } from '@centralino/contract';
import { Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A user's outbound call permission: every class (the CTI profile's), or only the classes ticked (none: internal
 * calls only). Emergency numbers are always allowed, which the description says.
 */
export function CallPermissionField({
  label,
  value,
  onChange,
  disabled,
  mixed,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  mixed?: boolean;
  error?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const inherit = value === CALL_PERMISSION_INHERIT;
  const chosen = inherit || value === '' ? [] : value.split(',');
  const join = (classes: string[]) => CALL_CLASSES.filter((c) => classes.includes(c)).join(',');
  return (
    <Stack gap={6} data-testid="call-permission">
      <Radio.Group
        label={label}
        description={mixed ? t('bulkExt.mixed') : t('blocking.permission.help')}
        value={mixed ? '' : inherit ? 'all' : 'limited'}
        onChange={(v) => onChange(v === 'all' ? CALL_PERMISSION_INHERIT : join(chosen))}
        error={error}
      >
        <Group mt={4}>
          <Radio value="all" label={t('blocking.permission.all')} disabled={disabled} />
          <Radio value="limited" label={t('blocking.permission.limited')} disabled={disabled} />
        </Group>
      </Radio.Group>
      {!inherit && !mixed ? (
        <Checkbox.Group aria-labelledby={`${id}-classes`} value={chosen} onChange={(v) => onChange(join(v))}>
          <Text id={`${id}-classes`} size="sm">
            {t('blocking.permission.classes')}
          </Text>
          <Group mt={4}>
            {CALL_CLASSES.map((c: CallClass) => (
              <Checkbox key={c} value={c} label={t(`blocking.classes.${c}`)} disabled={disabled} />
            ))}
          </Group>
        </Checkbox.Group>
      ) : null}
    </Stack>
  );
}
