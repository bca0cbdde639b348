import { Center, Loader } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from '../features/login/LoginPage.tsx';
// The signed-in frame loads after sign-in (lazyLayout.tsx).
import { AppLayout } from './lazyLayout.tsx';
import { ScreenFailure } from './loadFailure.tsx';

// Screens behind the login load on demand, so the login page downloads only what it shows.
const HomeOrWizard = lazy(() =>
  import('../features/wizard/HomeOrWizard.tsx').then((m) => ({ default: m.HomeOrWizard })),
);
const FinalPage = lazy(() => import('../features/wizard/FinalPage.tsx').then((m) => ({ default: m.FinalPage })));
const BackupPage = lazy(() => import('../features/backup/BackupPage.tsx').then((m) => ({ default: m.BackupPage })));
const AdminPage = lazy(() => import('../features/admin/AdminPage.tsx').then((m) => ({ default: m.AdminPage })));
const LanguagesPage = lazy(() =>
  import('../features/languages/LanguagesPage.tsx').then((m) => ({ default: m.LanguagesPage })),
);

const AdminSettingsPage = lazy(() =>
  import('../features/admin-settings/AdminSettingsPage.tsx').then((m) => ({ default: m.AdminSettingsPage })),
);
const AccountsPage = lazy(() =>
  import('../features/accounts/AccountsPage.tsx').then((m) => ({ default: m.AccountsPage })),
);
const CallsPage = lazy(() => import('../features/calls/CallsPage.tsx').then((m) => ({ default: m.CallsPage })));
const ReportsPage = lazy(() =>
  import('../features/calls/reports/ReportsPage.tsx').then((m) => ({ default: m.ReportsPage })),
);
const AuditPage = lazy(() => import('../features/audit/AuditPage.tsx').then((m) => ({ default: m.AuditPage })));
const PhonebookPage = lazy(() =>
  import('../features/phonebook/PhonebookPage.tsx').then((m) => ({ default: m.PhonebookPage })),
);
const AppsPage = lazy(() => import('../features/apps/AppsPage.tsx').then((m) => ({ default: m.AppsPage })));
const ParamUrlsPage = lazy(() =>
  import('../features/apps/ParamUrlsPage.tsx').then((m) => ({ default: m.ParamUrlsPage })),
);
const StreamingPage = lazy(() =>
  import('../features/apps/StreamingPage.tsx').then((m) => ({ default: m.StreamingPage })),
);
const CloudServicesPage = lazy(() =>
  import('../features/apps/CloudServicesPage.tsx').then((m) => ({ default: m.CloudServicesPage })),
);
const CardsPage = lazy(() => import('../features/cards/CardsPage.tsx').then((m) => ({ default: m.CardsPage })));
const RecordingsPage = lazy(() =>
  import('../features/flows/RecordingsPage.tsx').then((m) => ({ default: m.RecordingsPage })),
);
const AnnouncementsPage = lazy(() =>
  import('../features/flows/AnnouncementsPage.tsx').then((m) => ({ default: m.AnnouncementsPage })),
);
const DayNightPage = lazy(() =>
  import('../features/flows/DayNightPage.tsx').then((m) => ({ default: m.DayNightPage })),
);
const IvrsPage = lazy(() => import('../features/flows/IvrsPage.tsx').then((m) => ({ default: m.IvrsPage })));
const TimeGroupsPage = lazy(() =>
  import('../features/flows/TimeGroupsPage.tsx').then((m) => ({ default: m.TimeGroupsPage })),
);
const CqrPage = lazy(() => import('../features/flows/CqrPage.tsx').then((m) => ({ default: m.CqrPage })));
const TimeConditionsPage = lazy(() =>
  import('../features/flows/TimeConditionsPage.tsx').then((m) => ({ default: m.TimeConditionsPage })),
);
const QueuesPage = lazy(() => import('../features/flows/QueuesPage.tsx').then((m) => ({ default: m.QueuesPage })));
const ParkingPage = lazy(() => import('../features/parking/ParkingPage.tsx').then((m) => ({ default: m.ParkingPage })));
const MusicPage = lazy(() => import('../features/music/MusicPage.tsx').then((m) => ({ default: m.MusicPage })));
const ConferencesPage = lazy(() =>
  import('../features/conferences/ConferencesPage.tsx').then((m) => ({ default: m.ConferencesPage })),
);
const RingGroupsPage = lazy(() =>
  import('../features/flows/RingGroupsPage.tsx').then((m) => ({ default: m.RingGroupsPage })),
);
const BlockedCallersPage = lazy(() =>
  import('../features/blocking/BlockedCallersPage.tsx').then((m) => ({ default: m.BlockedCallersPage })),
);
const BulkExtensionsPage = lazy(() =>
  import('../features/bulk-extensions/BulkExtensionsPage.tsx').then((m) => ({ default: m.BulkExtensionsPage })),
);
const ReportPage = lazy(() => import('../features/report/ReportPage.tsx').then((m) => ({ default: m.ReportPage })));

const MigrationPage = lazy(() =>
  import('../features/migration/MigrationPage.tsx').then((m) => ({ default: m.MigrationPage })),
);
const MigrationUsersPage = lazy(() =>
  import('../features/migration/MigrationUsersPage.tsx').then((m) => ({ default: m.MigrationUsersPage })),
);
const MigrationConfigPage = lazy(() =>
  import('../features/migration/MigrationConfigPage.tsx').then((m) => ({ default: m.MigrationConfigPage })),
);
const MigrationCdrPage = lazy(() =>
  import('../features/migration/MigrationCdrPage.tsx').then((m) => ({ default: m.MigrationCdrPage })),
);
const MigrationReportPage = lazy(() =>
  import('../features/migration/MigrationReportPage.tsx').then((m) => ({ default: m.MigrationReportPage })),
);

const UsersPage = lazy(() => import('../features/users/UsersPage.tsx').then((m) => ({ default: m.UsersPage })));
const ExtensionsPage = lazy(() =>
  import('../features/users/ExtensionsPage.tsx').then((m) => ({ default: m.ExtensionsPage })),
);

const GroupsPage = lazy(() => import('../features/cti/GroupsPage.tsx').then((m) => ({ default: m.GroupsPage })));
const ProfilesPage = lazy(() => import('../features/cti/ProfilesPage.tsx').then((m) => ({ default: m.ProfilesPage })));

const PhysicalTrunksPage = lazy(() =>
  import('../features/gateways/PhysicalTrunksPage.tsx').then((m) => ({ default: m.PhysicalTrunksPage })),
);
const VoipTrunksPage = lazy(() =>
  import('../features/trunks/VoipTrunksPage.tsx').then((m) => ({ default: m.VoipTrunksPage })),
);

const InboundRoutesPage = lazy(() =>
  import('../features/routes/InboundRoutesPage.tsx').then((m) => ({ default: m.InboundRoutesPage })),
);
const OutboundRoutesPage = lazy(() =>
  import('../features/routes/OutboundRoutesPage.tsx').then((m) => ({ default: m.OutboundRoutesPage })),
);

const SubStepsPage = lazy(() => import('../features/wizard/SubSteps.tsx').then((m) => ({ default: m.SubStepsPage })));
const ConfigurationsRedirect = lazy(() =>
  import('../features/wizard/SubSteps.tsx').then((m) => ({ default: m.ConfigurationsRedirect })),
);

const DevicesPage = lazy(() => import('../features/phones/DevicesPage.tsx').then((m) => ({ default: m.DevicesPage })));
const InventoryPage = lazy(() =>
  import('../features/phones/InventoryPage.tsx').then((m) => ({ default: m.InventoryPage })),
);

const ConfigDevicesPage = lazy(() =>
  import('../features/phones/ConfigDevicesPage.tsx').then((m) => ({ default: m.ConfigDevicesPage })),
);

const ModelsPage = lazy(() => import('../features/models/ModelsPage.tsx').then((m) => ({ default: m.ModelsPage })));

const PreferencesPage = lazy(() =>
  import('../features/preferences/PreferencesPage.tsx').then((m) => ({ default: m.PreferencesPage })),
);

const BulkPhonesPage = lazy(() =>
  import('../features/bulk-phones/BulkPhonesPage.tsx').then((m) => ({ default: m.BulkPhonesPage })),
);

function screen(element: ReactNode) {
  return (
    <Suspense
      fallback={
        <Center mt="xl">
          <Loader />
        </Center>
      }
    >
      {element}
    </Suspense>
  );
}

/** Keep in step with ROUTED_PATHS (paths.ts); a test checks that they agree. */
export const routes = [
  { path: '/login', element: <LoginPage />, errorElement: <ScreenFailure /> },
  {
    element: <AppLayout />,
    errorElement: <ScreenFailure />,
    children: [
      { path: '/', element: screen(<HomeOrWizard />) },
      { path: '/users', element: screen(<UsersPage />) },
      { path: '/extensions', element: screen(<ExtensionsPage />) },
      { path: '/trunks', element: screen(<SubStepsPage group="trunks" />) },
      { path: '/trunks/physical', element: screen(<PhysicalTrunksPage />) },
      { path: '/trunks/voip', element: screen(<VoipTrunksPage />) },
      { path: '/routes', element: screen(<SubStepsPage group="routes" />) },
      { path: '/routes/inbound', element: screen(<InboundRoutesPage />) },
      { path: '/routes/outbound', element: screen(<OutboundRoutesPage />) },
      { path: '/routes/blocking', element: screen(<BlockedCallersPage />) },
      { path: '/devices', element: screen(<DevicesPage />) },
      { path: '/devices/inventory', element: screen(<InventoryPage />) },
      { path: '/devices/models', element: screen(<ModelsPage />) },
      { path: '/configurations', element: screen(<ConfigurationsRedirect />) },
      { path: '/configurations/devices', element: screen(<ConfigDevicesPage />) },
      { path: '/configurations/groups', element: screen(<GroupsPage />) },
      { path: '/configurations/preferences', element: screen(<PreferencesPage />) },
      { path: '/configurations/preferencesFreepbx', element: screen(<PreferencesPage />) },
      { path: '/configurations/profiles', element: screen(<ProfilesPage />) },
      { path: '/final', element: screen(<FinalPage />) },
      { path: '/apps', element: screen(<AppsPage />) },
      { path: '/apps/paramurl', element: screen(<ParamUrlsPage />) },
      { path: '/apps/streaming', element: screen(<StreamingPage />) },
      { path: '/apps/cloudServices', element: screen(<CloudServicesPage />) },
      { path: '/apps/bulkextensions', element: screen(<BulkExtensionsPage />) },
      { path: '/apps/phonebook', element: screen(<PhonebookPage />) },
      { path: '/apps/cards', element: screen(<CardsPage />) },
      { path: '/flows/recordings', element: screen(<RecordingsPage />) },
      { path: '/flows/announcements', element: screen(<AnnouncementsPage />) },
      { path: '/flows/ivr', element: screen(<IvrsPage />) },
      { path: '/flows/daynight', element: screen(<DayNightPage />) },
      { path: '/flows/queues', element: screen(<QueuesPage />) },
      { path: '/flows/conferences', element: screen(<ConferencesPage />) },
      { path: '/flows/parking', element: screen(<ParkingPage />) },
      { path: '/flows/music', element: screen(<MusicPage />) },
      { path: '/flows/ringgroups', element: screen(<RingGroupsPage />) },
      { path: '/flows/timegroups', element: screen(<TimeGroupsPage />) },
      { path: '/flows/timeconditions', element: screen(<TimeConditionsPage />) },
      { path: '/flows/cqr', element: screen(<CqrPage />) },
      { path: '/apps/bulkdevices', element: screen(<BulkPhonesPage />) },
      { path: '/bulkdevices', element: screen(<BulkPhonesPage />) },
      { path: '/migration', element: screen(<MigrationPage />) },
      { path: '/migration/users', element: screen(<MigrationUsersPage />) },
      { path: '/migration/config', element: screen(<MigrationConfigPage />) },
      { path: '/migration/cdr', element: screen(<MigrationCdrPage />) },
      { path: '/migration/report', element: screen(<MigrationReportPage />) },
      { path: '/admin', element: screen(<AdminPage />) },
      { path: '/admin/languages', element: screen(<LanguagesPage />) },
      { path: '/admin/settings', element: screen(<AdminSettingsPage />) },
      { path: '/admin/report', element: screen(<ReportPage />) },
      { path: '/admin/backup', element: screen(<BackupPage />) },
      { path: '/admin/accounts', element: screen(<AccountsPage />) },
      { path: '/admin/audit', element: screen(<AuditPage />) },
      { path: '/calls', element: screen(<CallsPage />) },
      { path: '/calls/reports', element: screen(<ReportsPage />) },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
