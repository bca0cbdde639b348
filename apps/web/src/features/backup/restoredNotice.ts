/**
 * What the last restore of this browser tab brought back, kept until the administrator dismisses it: the restore
 * invalidates every screen's data and the PBX reloads, so a passing notification was easily missed (issue 39,
 * item 6). Kept in sessionStorage so that a reload of the page after the restore still shows it.
 */
export interface RestoredNotice {
  /** When the restored backup was taken (ISO). */
  createdAt: string;
  /** When it was restored (ISO). */
  restoredAt: string;
  rows: number;
  files: number;
}

const KEY = 'centralino.backup.restored';

export function readRestoredNotice(): RestoredNotice | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as RestoredNotice | null;
    return value && typeof value.createdAt === 'string' && typeof value.restoredAt === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function saveRestoredNotice(notice: RestoredNotice): void {
  sessionStorage.setItem(KEY, JSON.stringify(notice));
}

export function dismissRestoredNotice(): void {
  sessionStorage.removeItem(KEY);
}
