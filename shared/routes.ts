/**
 * The page's hash routes: hashes, so a reload lands on the same page under file:// (Electron) and
 * http (serve) alike. Shared so the desktop app can open a page too (a `--project` launch).
 */
export type Route = { page: 'projects' } | { page: 'project'; projectId: string; focus?: RouteFocus } | { page: 'settings' };

/**
 * What a project's page opens on, for a link from another page (another machine's Needs you
 * item): the page takes it once it loads and goes to it.
 */
export type RouteFocus = { agentId: string } | { taskId: string };

const PROJECT_PREFIX = '#/project/';
const SETTINGS_HASH = '#/settings';

function parseFocus(query: string): RouteFocus | undefined {
  const params = new URLSearchParams(query);
  const agentId = params.get('agent');
  if (agentId) return { agentId };
  const taskId = params.get('task');
  return taskId ? { taskId } : undefined;
}

/** A hash is typed or pasted by people too: a malformed escape reads as no project, never as a throw. */
function decoded(component: string): string {
  try {
    return decodeURIComponent(component);
  } catch {
    return '';
  }
}

export function parseRoute(hash: string): Route {
  if (hash.startsWith(PROJECT_PREFIX)) {
    const [path = '', query = ''] = hash.slice(PROJECT_PREFIX.length).split('?', 2);
    const projectId = decoded(path);
    const focus = parseFocus(query);
    if (projectId) return focus ? { page: 'project', projectId, focus } : { page: 'project', projectId };
  }
  if (hash === SETTINGS_HASH) return { page: 'settings' };
  return { page: 'projects' };
}

function focusQuery(focus: RouteFocus | undefined): string {
  if (!focus) return '';
  return 'agentId' in focus ? `?agent=${encodeURIComponent(focus.agentId)}` : `?task=${encodeURIComponent(focus.taskId)}`;
}

export function routeHref(route: Route): string {
  switch (route.page) {
    case 'project':
      return `${PROJECT_PREFIX}${encodeURIComponent(route.projectId)}${focusQuery(route.focus)}`;
    case 'settings':
      return SETTINGS_HASH;
    case 'projects':
      return '#/';
  }
}
