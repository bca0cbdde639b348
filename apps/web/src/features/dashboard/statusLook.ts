import type { DashboardExtensionStatus, DashboardTrunk } from '@centralino/contract';

/** Colour of an extension's status: green online, grey offline or unknown, orange for the others (busy, ringing, on hold). */
export function extensionColor(status: DashboardExtensionStatus): string {
  if (status === 'online') return 'teal';
  if (status === 'offline' || status === 'unknown') return 'gray';
  return 'orange';
}

/** Registration colours of the spec: registered green, unmonitored grey, any other red. */
export function registrationColor(registration: DashboardTrunk['registration']): string {
  if (registration === 'registered') return 'teal';
  if (registration === 'unmonitored' || registration === 'unknown') return 'gray';
  return 'red';
}

export function trunkStatusColor(status: DashboardTrunk['status']): string {
  if (status === 'online') return 'teal';
  if (status === 'unmonitored' || status === 'unknown') return 'gray';
  return status === 'offline' ? 'red' : 'orange';
}
