import { PRELOAD_BRIDGE_KEY, type DesktopNotification, type PreloadBridge } from '../../shared/preloadBridge';

export type NotificationPermissionState = 'granted' | 'denied' | 'default' | 'unsupported';

/**
 * The system's notifications and the app's badge: native ones through the desktop app's preload,
 * Web Notifications in a browser (after the person allows them).
 */
export interface SystemNotifier {
  /** 'desktop' needs no permission; 'web' asks the browser. */
  kind: 'desktop' | 'web';
  permission(): NotificationPermissionState;
  requestPermission(): Promise<NotificationPermissionState>;
  /** A notification with the same id replaces the one shown before. */
  show(notification: DesktopNotification, onClick: () => void): void;
  setBadgeCount(count: number): void;
}

function desktopBridge(): Pick<PreloadBridge, 'notify' | 'onNotificationClick' | 'setBadgeCount'> | null {
  const candidate: unknown = Reflect.get(window, PRELOAD_BRIDGE_KEY);
  if (typeof candidate !== 'object' || candidate === null) return null;
  const { notify, onNotificationClick, setBadgeCount } = candidate as Partial<Record<keyof PreloadBridge, unknown>>;
  return typeof notify === 'function' && typeof onNotificationClick === 'function' && typeof setBadgeCount === 'function' ? (candidate as PreloadBridge) : null;
}

function createDesktopNotifier(desktop: NonNullable<ReturnType<typeof desktopBridge>>): SystemNotifier {
  const clicks = new Map<string, () => void>();
  desktop.onNotificationClick((id) => clicks.get(id)?.());
  return {
    kind: 'desktop',
    permission: () => 'granted',
    requestPermission: () => Promise.resolve('granted'),
    show(notification, onClick) {
      clicks.set(notification.id, onClick);
      desktop.notify(notification);
    },
    setBadgeCount: (count) => desktop.setBadgeCount(count),
  };
}

function webPermission(): NotificationPermissionState {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

function createWebNotifier(): SystemNotifier {
  return {
    kind: 'web',
    permission: webPermission,
    async requestPermission() {
      if (typeof Notification === 'undefined') return 'unsupported';
      return Notification.requestPermission();
    },
    show({ id, title, body, silent }, onClick) {
      if (webPermission() !== 'granted') return;
      let notification: Notification;
      try {
        notification = new Notification(title, { body, tag: id, silent });
      } catch (error) {
        // Chrome on Android shows notifications only from a service worker; the queue still counts.
        console.warn('Drover: this browser shows no page notifications', error);
        return;
      }
      notification.onclick = () => {
        window.focus();
        onClick();
        notification.close();
      };
    },
    setBadgeCount(count) {
      // Installed web apps show it on their icon; elsewhere the title carries the count.
      const badge = count > 0 ? navigator.setAppBadge?.(count) : navigator.clearAppBadge?.();
      badge?.catch(() => undefined);
    },
  };
}

let notifier: SystemNotifier | null = null;

export function systemNotifier(): SystemNotifier {
  if (!notifier) {
    const desktop = desktopBridge();
    notifier = desktop ? createDesktopNotifier(desktop) : createWebNotifier();
  }
  return notifier;
}
