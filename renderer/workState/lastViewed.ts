const KEY_PREFIX = 'drover.lastViewed.';

/** When this browser last showed the project's page (ms since epoch; 0 = never). */
export function readLastViewed(projectId: string): number {
  try {
    return Number(window.localStorage.getItem(KEY_PREFIX + projectId)) || 0;
  } catch {
    return 0;
  }
}

export function markViewed(projectId: string, at = Date.now()): void {
  try {
    window.localStorage.setItem(KEY_PREFIX + projectId, String(at));
  } catch {
    // Without storage every failure just stays "new"; nothing else depends on it.
  }
}
