/**
 * The page's hash routes: hashes, so a reload lands on the same page under file:// (Electron) and
 * http (serve) alike. Shared so the desktop app can open a page too (a `--project` launch).
 */
export type Route = { page: 'projects' } | { page: 'project'; projectId: string } | { page: 'settings' };

const PROJECT_PREFIX = '#/project/';
const SETTINGS_HASH = '#/settings';

export function parseRoute(hash: string): Route {
  if (hash.startsWith(PROJECT_PREFIX)) {
    const projectId = decodeURIComponent(hash.slice(PROJECT_PREFIX.length));
    if (projectId) return { page: 'project', projectId };
  }
  if (hash === SETTINGS_HASH) return { page: 'settings' };
  return { page: 'projects' };
}

export function routeHref(route: Route): string {
  switch (route.page) {
    case 'project':
      return `${PROJECT_PREFIX}${encodeURIComponent(route.projectId)}`;
    case 'settings':
      return SETTINGS_HASH;
    case 'projects':
      return '#/';
  }
}
