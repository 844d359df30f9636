import { useEffect } from 'react';
import { systemNotifier } from '../transport/systemNotifications';

/** The taskbar (desktop app) or app icon (installed web app) shows how many items need the person. */
export function useBadgeCount(count: number): void {
  useEffect(() => systemNotifier().setBadgeCount(count), [count]);
}
