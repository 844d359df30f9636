const STORAGE_KEY = 'drover.accessToken';

/**
 * `drover serve` hands out its URL with `?token=…`. The token is kept in sessionStorage so a
 * reload still connects, and taken out of the address bar so it does not linger in history or
 * screenshots.
 */
export function readAccessToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    rememberToken(fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.toString());
    return fromUrl;
  }
  return recallToken();
}

function rememberToken(token: string): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage can be disabled; the token still works for this page load.
  }
}

function recallToken(): string | null {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}
