import type { Migration } from 'kysely';
import { initial } from './0001_initial.ts';
import { users } from './0002_users.ts';
import { cti } from './0003_cti.ts';
import { pbx } from './0004_pbx.ts';
import { trunks } from './0005_trunks.ts';
import { gateways } from './0006_gateways.ts';
import { routes } from './0007_routes.ts';
import { provisioning } from './0008_provisioning.ts';
import { devices } from './0009_devices.ts';
import { phoneReboots } from './0010_phone_reboots.ts';
import { groupDestinations } from './0011_group_destinations.ts';
import { loginThrottle } from './0012_login_throttle.ts';
import { profileRouteLinks } from './0013_profile_route_links.ts';
import { userCallSettings } from './0014_user_call_settings.ts';
import { phonebook } from './0015_phonebook.ts';
import { usersVersion } from './0016_users_version.ts';
import { cardSources } from './0017_card_sources.ts';
import { customerCards } from './0018_customer_cards.ts';
import { apps } from './0019_apps.ts';
import { callFlows } from './0020_call_flows.ts';
import { dayNight } from './0021_daynight.ts';
import { queuesTimeConditions } from './0022_queues_time_conditions.ts';
import { migrationFromLegacy } from './0023_migration.ts';
import { accountsAudit2fa } from './0024_accounts_audit_2fa.ts';
import { backup } from './0025_backup.ts';
import { cqr } from './0026_cqr.ts';
import { processLeases } from './0027_process_leases.ts';
import { callRecordSpool } from './0029_call_record_spool.ts';
import { migrationMessages } from './0030_migration_messages.ts';
import { tableVersions } from './0031_table_versions.ts';
import { rowChanges } from './0032_row_changes.ts';
import { provSipPorts } from './0033_prov_sip_ports.ts';
import { callHistory } from './0034_call_history.ts';
import { callRecordings } from './0035_call_recordings.ts';
import { callReports } from './0036_call_reports.ts';
import { ringGroups } from './0037_ring_groups.ts';
import { conferences } from './0038_conferences.ts';
import { parking } from './0039_parking.ts';
import { blocking } from './0040_blocking.ts';
import { musicOnHold } from './0041_music_on_hold.ts';
import { followMe } from './0042_followme.ts';
import { ringGroupRecording } from './0043_ring_group_recording.ts';

/** Ordered by name; add new migrations at the end and never edit a released one. */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_users': users,
  '0003_cti': cti,
  '0004_pbx': pbx,
  '0005_trunks': trunks,
  '0006_gateways': gateways,
  '0007_routes': routes,
  '0008_provisioning': provisioning,
  '0009_devices': devices,
  '0010_phone_reboots': phoneReboots,
  '0011_group_destinations': groupDestinations,
  '0012_login_throttle': loginThrottle,
  '0013_profile_route_links': profileRouteLinks,
  '0014_user_call_settings': userCallSettings,
  '0015_phonebook': phonebook,
  '0016_users_version': usersVersion,
  '0017_card_sources': cardSources,
  '0018_customer_cards': customerCards,
  '0019_apps': apps,
  '0020_call_flows': callFlows,
  '0021_daynight': dayNight,
  '0022_queues_time_conditions': queuesTimeConditions,
  '0023_migration': migrationFromLegacy,
  '0024_accounts_audit_2fa': accountsAudit2fa,
  '0025_backup': backup,
  '0026_cqr': cqr,
  '0027_process_leases': processLeases,
  '0029_call_record_spool': callRecordSpool,
  '0030_migration_messages': migrationMessages,
  '0031_table_versions': tableVersions,
  '0032_row_changes': rowChanges,
  '0033_prov_sip_ports': provSipPorts,
  '0034_call_history': callHistory,
  '0035_call_recordings': callRecordings,
  '0036_call_reports': callReports,
  '0037_ring_groups': ringGroups,
  '0038_conferences': conferences,
  '0039_parking': parking,
  '0040_blocking': blocking,
  '0041_music_on_hold': musicOnHold,
  '0042_followme': followMe,
  '0043_ring_group_recording': ringGroupRecording,
};
