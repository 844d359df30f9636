import { useSyncExternalStore } from 'react';
import { parseRoute, routeHref, type Route } from '../shared/routes';

export { routeHref, type Route } from '../shared/routes';

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
