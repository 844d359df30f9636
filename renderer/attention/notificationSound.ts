/** Whether notifications play the system's sound: a choice of this browser (or desktop app), kept across reloads. */
export const NOTIFICATION_SOUND_KEY = 'drover.notificationSound';

export function notificationSoundOn(): boolean {
  try {
    return window.localStorage.getItem(NOTIFICATION_SOUND_KEY) === 'true';
  } catch {
    return false;
  }
}
