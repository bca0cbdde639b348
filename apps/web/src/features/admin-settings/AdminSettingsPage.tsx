import { ADMIN_PASSWORD_MIN_LENGTH, passwordRequestSchema, stepOfPath } from '@centralino/contract';
import { Alert, Button, Card, Center, Group, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { api } from '../../api/endpoints.ts';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { RecordingSettingsCard } from '../calls/RecordingSettingsCard.tsx';
import { useEngine, useWizardState } from '../wizard/useWizard.ts';
import { WizardFrame } from '../wizard/WizardFrame.tsx';

const PATH = '/admin/settings';

type Problem = 'required' | 'tooShort' | 'mismatch';

type Problems = { current?: Problem; password?: Problem; confirm?: Problem };

/** What is wrong with each field, checked before anything is sent (the server applies the same rules). */
export function checkPasswordForm(current: string, password: string, confirmation: string): Problems {
  const problems: Problems = {};
  if (current === '') problems.current = 'required';
  if (password === '') problems.password = 'required';
  else if ([...password].length < ADMIN_PASSWORD_MIN_LENGTH || !passwordRequestSchema.safeParse({ password }).success)
    problems.password = 'tooShort';
  if (confirmation === '') problems.confirm = 'required';
  else if (confirmation !== password) problems.confirm = 'mismatch';
  return problems;
}

function PasswordForm() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState(false);
  /** The server's word on the current password (wrong, or sign-ins paused), shown at that field. */
  const [currentRefused, setCurrentRefused] = useState<string>();
  const change = useMutation({
    mutationFn: () => api.changeAdminPassword(password, current),
    onSuccess: () => {
      setCurrent('');
      setPassword('');
      setConfirmation('');
      setTouched(false);
      setCurrentRefused(undefined);
      notifySuccess(t('adminSettings.changed'));
    },
    onError: (error) => {
      if (error instanceof ApiError && ['current_password_wrong', 'login_locked'].includes(error.code)) {
        setCurrentRefused(error.code === 'login_locked' ? error.body.detail : t('adminSettings.currentWrong'));
      }
      notifyError(t('adminSettings.error'), error);
    },
  });

  const problems = touched ? checkPasswordForm(current, password, confirmation) : {};
  const message = (problem: Problem | undefined) =>
    problem && t(`adminSettings.${problem}`, { min: ADMIN_PASSWORD_MIN_LENGTH });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    const found = checkPasswordForm(current, password, confirmation);
    if (found.current || found.password || found.confirm) return;
    change.mutate();
  };

  return (
    <Card withBorder radius="md" maw={560}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t('adminSettings.description', { min: ADMIN_PASSWORD_MIN_LENGTH })}
          </Text>
          <Alert color="yellow" icon={<IconAlertTriangle />} title={t('adminSettings.warningTitle')}>
            {t('adminSettings.warning')}
          </Alert>
          <PasswordInput
            label={t('adminSettings.current')}
            name="current-password"
            autoComplete="current-password"
            required
            value={current}
            onChange={(e) => {
              setCurrent(e.currentTarget.value);
              setCurrentRefused(undefined);
            }}
            error={message(problems.current) ?? currentRefused}
            visibilityToggleButtonProps={{ 'aria-label': t('adminSettings.toggleCurrent') }}
          />
          <PasswordInput
            label={t('adminSettings.password')}
            name="new-password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={message(problems.password)}
            visibilityToggleButtonProps={{ 'aria-label': t('adminSettings.togglePassword') }}
          />
          <PasswordInput
            label={t('adminSettings.confirm')}
            name="confirm-password"
            autoComplete="new-password"
            required
            value={confirmation}
            onChange={(e) => setConfirmation(e.currentTarget.value)}
            error={message(problems.confirm)}
            visibilityToggleButtonProps={{ 'aria-label': t('adminSettings.toggleConfirm') }}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              {t('adminSettings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export function AdminSettingsPage() {
  const { t } = useTranslation();
  const engine = useEngine();
  const wizard = useWizardState();

  if (!engine.data || !wizard.data) {
    return (
      <Center mt="xl">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }

  const step = stepOfPath(engine.data, PATH);
  if (wizard.data.active && step !== undefined) {
    // Changing the password is optional: Finalise is always allowed.
    return (
      <WizardFrame engine={engine.data} step={step} canAdvance>
        <PasswordForm />
      </WizardFrame>
    );
  }
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('adminSettings.title')}
      </Title>
      <PasswordForm />
      <RecordingSettingsCard />
    </Stack>
  );
}
