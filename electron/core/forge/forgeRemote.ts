/**
 * Which forge a git remote points at. `origin` names the repository; its host tells github.com
 * from a GitHub Enterprise Server (`https://HOST/api/v3`) and from forges Drover does not speak to.
 */

export interface RemoteRepository {
  host: string;
  /** owner/name */
  repository: string;
}

export const GITHUB_API_URL = 'https://api.github.com';

/** Hosts that are surely not GitHub: their API is another. */
const OTHER_FORGES = /(^|\.)(gitlab\.com|bitbucket\.org|codeberg\.org|sr\.ht|gitea\.com|dev\.azure\.com|visualstudio\.com)$|(^|\.)gitlab\./;

/** Parses the remote forms git takes: https://host/o/r(.git), ssh://git@host[:port]/o/r, git@host:o/r. */
export function parseRemoteUrl(remote: string): RemoteRepository | null {
  const text = remote.trim();
  let host: string;
  let repoPath: string;
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(text);
  if (/^[a-z+]+:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      if (!['https:', 'http:', 'ssh:', 'git:', 'git+ssh:', 'ssh+git:'].includes(url.protocol)) return null;
      host = url.hostname.toLowerCase();
      repoPath = decodeURIComponent(url.pathname);
    } catch {
      return null;
    }
  } else if (scp && !text.startsWith('/') && !text.startsWith('.')) {
    host = (scp[1] ?? '').toLowerCase();
    repoPath = scp[2] ?? '';
  } else {
    return null;
  }
  const parts = repoPath.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '').split('/');
  if (parts.length !== 2 || !parts.every((part) => /^[A-Za-z0-9_.-]+$/.test(part))) return null;
  return { host, repository: parts.join('/') };
}

/** The REST API of the GitHub a host serves; null when the host is not known to be one. */
export function apiUrlForHost(host: string): string | null {
  if (host === 'github.com' || host === 'www.github.com' || host === 'ssh.github.com') return GITHUB_API_URL;
  if (OTHER_FORGES.test(host)) return null;
  return host.includes('github') ? `https://${host}/api/v3` : null;
}

/** The host `gh` knows the API by: github.com, or the Enterprise Server's host (with a port, if any). */
export function ghHostnameOf(apiUrl: string): string {
  if (apiUrl === GITHUB_API_URL) return 'github.com';
  return new URL(apiUrl).host;
}

/** The web page of the forge for a person to open (its pull requests, tokens page). */
export function webUrlOf(apiUrl: string): string {
  if (apiUrl === GITHUB_API_URL) return 'https://github.com';
  return new URL(apiUrl).origin;
}
