import { useSyncExternalStore } from 'react';

/** Hash routes, so a reload lands on the same page under file:// (Electron) and http (serve) alike. */
export type Route = { page: 'projects' } | { page: 'project'; projectId: string };

const PROJECT_PREFIX = '#/project/';

function parseRoute(hash: string): Route {
  if (hash.startsWith(PROJECT_PREFIX)) {
    const projectId = decodeURIComponent(hash.slice(PROJECT_PREFIX.length));
    if (projectId) return { page: 'project', projectId };
  }
  return { page: 'projects' };
}

export function routeHref(route: Route): string {
  return route.page === 'project' ? `${PROJECT_PREFIX}${encodeURIComponent(route.projectId)}` : '#/';
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

function currentHash(): string {
  return window.location.hash;
}

export function useRoute(): Route {
  return parseRoute(useSyncExternalStore(subscribe, currentHash));
}

/** The page shown now, for code outside React (a notification deciding whether its item is in view). */
export function currentRoute(): Route {
  return parseRoute(currentHash());
}

export function navigate(route: Route): void {
  window.location.hash = routeHref(route);
}
