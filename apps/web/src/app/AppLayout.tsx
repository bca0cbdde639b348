import { isPathAllowedInMode, totalSteps } from '@centralino/contract';
import {
  Alert,
  AppShell,
  Badge,
  Burger,
  Center,
  Group,
  Loader,
  Menu,
  NavLink,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconAddressBook,
  IconApi,
  IconApps,
  IconArchive,
  IconArrowBarToDown,
  IconArrowBarUp,
  IconBan,
  IconCalendarTime,
  IconChartBar,
  IconClockHour4,
  IconCloudComputing,
  IconDatabaseSearch,
  IconDeviceDesktop,
  IconDeviceDesktopCog,
  IconDeviceMobileCog,
  IconDevices,
  IconDialpad,
  IconHeadset,
  IconHistory,
  IconHome,
  IconId,
  IconKey,
  IconLanguage,
  IconLink,
  IconLogout,
  IconMicrophone,
  IconMusic,
  IconParking,
  IconPhoneCall,
  IconPhoneCalling,
  IconPlugConnected,
  IconReportAnalytics,
  IconSettings,
  IconShieldLock,
  IconSitemap,
  IconSpeakerphone,
  IconSunMoon,
  IconUserCircle,
  IconUserCog,
  IconUserShield,
  IconUsers,
  IconUsersGroup,
  IconUsersPlus,
  IconVideo,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { ReadOnlyHint } from '../components/WriteControls.tsx';
import { ApplyFailureBanner } from '../features/pbx/ApplyFailureBanner.tsx';
import { ApplyIndicator } from '../features/pbx/ApplyIndicator.tsx';
import { ApplyWarningsBanner } from '../features/pbx/ApplyWarningsBanner.tsx';
import { useEngine, useWizardState } from '../features/wizard/useWizard.ts';
import { useAuth } from './auth.tsx';
import { LanguageMenu } from './LanguageMenu.tsx';

function UserMenu() {
  const { t } = useTranslation();
  const auth = useAuth();
  return (
    <Menu position="bottom-end">
      <Menu.Target>
        {/* Named by what it shows, then what it is: the visible text starts the name (WCAG 2.5.3). */}
        <UnstyledButton>
          <Group gap={6}>
            <IconUserCircle size={20} aria-hidden />
            <Text size="sm">
              {auth.user}
              <VisuallyHidden> ({t('nav.userMenu')})</VisuallyHidden>
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('nav.signedInAs', { user: auth.user })}</Menu.Label>
        <Menu.Item component="a" href="/api/docs" target="_blank" leftSection={<IconApi size={16} />}>
          {t('nav.apiDocs')}
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={auth.logout}>
          {t('nav.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function Navigation({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const engine = useEngine();
  const item = (to: string, label: string, icon: React.ReactNode) => (
    <NavLink component={Link} to={to} label={label} leftSection={icon} active={pathname === to} onClick={onNavigate} />
  );
  return (
    <nav aria-label={t('nav.mainMenu')}>
      {item('/', t('nav.home'), <IconHome size={18} />)}
      {item('/calls', t('nav.calls'), <IconPhoneCall size={18} />)}
      {/* Under Call history, indented like a submenu's item: the history itself stays one click away. */}
      <NavLink
        component={Link}
        to="/calls/reports"
        label={t('nav.callReports')}
        leftSection={<IconChartBar size={18} />}
        active={pathname === '/calls/reports'}
        onClick={onNavigate}
        pl={28}
      />
      {item('/extensions', t('nav.users'), <IconUsers size={18} />)}
      {item('/trunks/physical', t('nav.physical'), <IconPlugConnected size={18} />)}
      {item('/trunks/voip', t('nav.voip'), <IconCloudComputing size={18} />)}
      {item('/routes/inbound', t('nav.inbound'), <IconArrowBarToDown size={18} />)}
      {item('/routes/outbound', t('nav.outbound'), <IconArrowBarUp size={18} />)}
      {item('/routes/blocking', t('nav.blocking'), <IconBan size={18} />)}
      <NavLink
        label={t('nav.callFlows')}
        leftSection={<IconSitemap size={18} />}
        defaultOpened={pathname.startsWith('/flows/')}
        childrenOffset={28}
      >
        {item('/flows/recordings', t('nav.recordings'), <IconMicrophone size={18} />)}
        {item('/flows/announcements', t('nav.announcements'), <IconSpeakerphone size={18} />)}
        {item('/flows/ivr', t('nav.ivr'), <IconDialpad size={18} />)}
        {item('/flows/daynight', t('nav.daynight'), <IconSunMoon size={18} />)}
        {item('/flows/queues', t('nav.queues'), <IconHeadset size={18} />)}
        {item('/flows/conferences', t('nav.conferences'), <IconUsersGroup size={18} />)}
        {item('/flows/parking', t('nav.parking'), <IconParking size={18} />)}
        {item('/flows/music', t('nav.music'), <IconMusic size={18} />)}
        {item('/flows/ringgroups', t('nav.ringGroups'), <IconPhoneCalling size={18} />)}
        {item('/flows/timegroups', t('nav.timeGroups'), <IconCalendarTime size={18} />)}
        {item('/flows/timeconditions', t('nav.timeConditions'), <IconClockHour4 size={18} />)}
        {item('/flows/cqr', t('nav.cqr'), <IconDatabaseSearch size={18} />)}
      </NavLink>
      {engine.data === 'tancredi' && item('/devices', t('nav.devices'), <IconDeviceDesktopCog size={18} />)}
      {engine.data === 'tancredi' && item('/devices/inventory', t('nav.inventory'), <IconDeviceDesktop size={18} />)}
      {engine.data === 'tancredi' && item('/devices/models', t('nav.models'), <IconDeviceMobileCog size={18} />)}
      {item('/configurations/groups', t('nav.groups'), <IconUsersGroup size={18} />)}
      {item('/configurations/profiles', t('nav.profiles'), <IconShieldLock size={18} />)}
      {engine.data &&
        item(
          engine.data === 'tancredi' ? '/configurations/preferences' : '/configurations/preferencesFreepbx',
          t('nav.preferences'),
          <IconUserCog size={18} />,
        )}
      {item('/apps', t('nav.apps'), <IconApps size={18} />)}
      {item('/apps/phonebook', t('nav.phonebook'), <IconAddressBook size={18} />)}
      {item('/apps/cards', t('nav.cards'), <IconId size={18} />)}
      {item('/apps/streaming', t('nav.streaming'), <IconVideo size={18} />)}
      {item('/apps/paramurl', t('nav.paramurl'), <IconLink size={18} />)}
      {item('/apps/cloudServices', t('nav.cloudServices'), <IconMicrophone size={18} />)}
      {item('/apps/bulkextensions', t('nav.bulkExtensions'), <IconUsersPlus size={18} />)}
      {engine.data === 'tancredi' && item('/apps/bulkdevices', t('nav.bulkPhones'), <IconDevices size={18} />)}
      {item('/admin', t('nav.admin'), <IconSettings size={18} />)}
      {item('/admin/languages', t('nav.languages'), <IconLanguage size={18} />)}
      {item('/admin/settings', t('nav.settings'), <IconKey size={18} />)}
      {item('/admin/report', t('nav.report'), <IconReportAnalytics size={18} />)}
      {item('/admin/backup', t('nav.backup'), <IconArchive size={18} />)}
      {item('/admin/accounts', t('nav.accounts'), <IconUserShield size={18} />)}
      {item('/admin/audit', t('nav.audit'), <IconHistory size={18} />)}
    </nav>
  );
}

const MAIN_ID = 'main-content';

/** First stop of the keyboard on every screen: jumps over the header and the menu to the screen itself. */
function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      className="skip-link"
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        // Focus moves by hand: the router owns the URL, and the hash would stay in it.
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
    >
      {t('nav.skipToContent')}
    </a>
  );
}

/** Signed-in frame: top bar always; the navigation menu only once the wizard is finished. */
export function AppLayout() {
  const { t } = useTranslation();
  const auth = useAuth();
  const location = useLocation();
  // Nothing is asked before sign-in: those calls could only answer 401.
  const signedIn = auth.status === 'signedIn';
  const engine = useEngine(signedIn);
  const wizard = useWizardState(signedIn);
  const [opened, { toggle, close }] = useDisclosure(false);

  if (auth.status === 'checking') {
    return (
      <Center mih="100vh">
        <Loader aria-label={t('app.loading')} />
      </Center>
    );
  }
  if (auth.status === 'signedOut') return <Navigate to="/login" replace />;
  if (engine.data && !isPathAllowedInMode(engine.data, location.pathname)) return <Navigate to="/" replace />;

  const inWizard = wizard.data?.active ?? true;
  return (
    <>
      <SkipLink />
      <AppShell
        header={{ height: 56 }}
        navbar={inWizard ? undefined : { width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
        padding="lg"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Group gap="sm">
              {!inWizard && (
                <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.openMenu')} />
              )}
              <Text fw={700} size="lg">
                {t('app.name')}
              </Text>
              {inWizard && wizard.data && (
                <Badge variant="light" data-testid="wizard-badge">
                  {t('wizard.stepOf', { step: wizard.data.step, total: totalSteps(engine.data ?? 'tancredi') })}
                </Badge>
              )}
            </Group>
            <Group gap="sm">
              <ApplyIndicator />
              <LanguageMenu />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        {!inWizard && (
          // The menu outgrows a laptop screen: it scrolls on its own rather than hiding its last items.
          <AppShell.Navbar p="xs" style={{ overflowY: 'auto' }}>
            <Navigation onNavigate={close} />
          </AppShell.Navbar>
        )}
        <AppShell.Main id={MAIN_ID} tabIndex={-1}>
          {auth.readOnly && (
            <Alert color="blue" mb="md" title={t('readOnly.badge')} data-testid="read-only-banner">
              {t('readOnly.banner')}
            </Alert>
          )}
          {/* What every disabled write control points to (components/WriteControls.tsx). */}
          {auth.readOnly && <ReadOnlyHint />}
          <ApplyFailureBanner />
          <ApplyWarningsBanner />
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </>
  );
}
