import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { ApiError } from '../../api/client.ts';
import { useAuth } from '../../app/auth.tsx';
import { LanguageMenu } from '../../app/LanguageMenu.tsx';
import { preloadSignedIn } from '../../app/lazyLayout.tsx';

export function LoginPage() {
  const { t } = useTranslation();
  const auth = useAuth();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<{ title: string; detail: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // Set when the password was right and the account has a second factor: the form asks for the code.
  const [challenge, setChallenge] = useState<string | null>(null);
  const [code, setCode] = useState('');

  if (auth.status === 'signedIn') return <Navigate to="/" replace />;

  const missingUser = touched && username.trim() === '';
  const missingPassword = touched && password === '';

  // Back to the user name and password: whoever reached the code step with the wrong account is not stuck there.
  const anotherAccount = () => {
    setChallenge(null);
    setCode('');
    setUsername('');
    setPassword('');
    setFailure(null);
    setTouched(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    // Only what the form shows is checked here: this page loads no zod (docs/architecture.md). The server
    // checks the rest with loginRequestSchema, and its localised refusal is shown below.
    if (challenge !== null) {
      if (code.trim() === '') return;
    } else if (username.trim() === '' || password === '') return;
    setBusy(true);
    setFailure(null);
    preloadSignedIn();
    try {
      if (challenge !== null) {
        await auth.loginCode(challenge, code.trim());
      } else {
        const step = await auth.login(username, password);
        if (step.challenge) {
          setChallenge(step.challenge);
          setTouched(false);
          return;
        }
      }
      navigate('/', { replace: true });
    } catch (error) {
      // A spent or expired second step starts again from the password.
      if (challenge !== null && error instanceof ApiError && error.code === 'login_failed') {
        setChallenge(null);
        setCode('');
      }
      // The password stays as typed (the show/hide toggle reveals a typo); only the failure is reported.
      if (error instanceof ApiError && (error.status !== 401 || error.code === 'second_factor_failed')) {
        setFailure({ title: error.body.title, detail: error.body.detail });
      } else {
        setFailure({ title: t('login.errorTitle'), detail: t('login.errorDetail') });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="md" p="xl" radius="md" w={400} maw="100%">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <div>
              <Title order={1} size="h2">
                {t('app.name')}
              </Title>
              <Text c="dimmed" size="sm">
                {t('login.subtitle')}
              </Text>
            </div>
            {failure && (
              <Alert color="red" icon={<IconAlertCircle />} title={failure.title} role="alert">
                {failure.detail}
              </Alert>
            )}
            {challenge !== null ? (
              <>
                <Text size="sm">{t('login.codeHelp')}</Text>
                <TextInput
                  label={t('login.code')}
                  name="one-time-code"
                  autoComplete="one-time-code"
                  inputMode="text"
                  required
                  value={code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                  error={touched && code.trim() === '' ? t('login.required') : undefined}
                  autoFocus
                />
                <Button type="submit" loading={busy} fullWidth>
                  {t('login.verify')}
                </Button>
                <Button variant="default" onClick={anotherAccount} disabled={busy} fullWidth>
                  {t('login.anotherAccount')}
                </Button>
              </>
            ) : (
              <>
                <TextInput
                  label={t('login.username')}
                  name="username"
                  autoComplete="username"
                  required
                  value={username}
                  onChange={(e) => setUsername(e.currentTarget.value)}
                  error={missingUser ? t('login.required') : undefined}
                  autoFocus
                />
                <PasswordInput
                  label={t('login.password')}
                  name="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  error={missingPassword ? t('login.required') : undefined}
                  visibilityToggleButtonProps={{ 'aria-label': t('login.togglePassword') }}
                />
                <Button type="submit" loading={busy} fullWidth>
                  {t('login.signIn')}
                </Button>
              </>
            )}
            <Center>
              <LanguageMenu />
            </Center>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
