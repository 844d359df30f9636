/** A UI preference kept in this browser's storage; storage can be disabled, and then the choice holds for this page only. */
export function readLocalSetting(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeLocalSetting(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Storage can be disabled; the choice still holds for this page.
  }
}
