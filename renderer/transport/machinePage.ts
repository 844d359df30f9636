import { MachineNameSchema } from '../../shared/machines';
import { routeHref, type Route } from '../../shared/routes';

/** A page of another machine is served under /machines/NAME/ and talks to that machine's host. */
const MACHINE_PAGE = /^\/machines\/([a-z0-9][a-z0-9._-]{0,39})\//;

/** The machine this page shows, or null for this machine's own page. */
export function machineOfPage(location: Pick<Location, 'pathname' | 'search'> = window.location): string | null {
  const served = location.pathname.match(MACHINE_PAGE)?.[1];
  if (served) return served;
  const windowOf = new URLSearchParams(location.search).get('machine');
  // A desktop window of another machine loads the app's own file with `?machine=NAME`.
  return MachineNameSchema.safeParse(windowOf).success ? windowOf : null;
}

/** Where the page's API WebSocket is: `/api`, or its machine's. */
export function apiPathOf(machine: string | null): string {
  return machine ? `/machines/${machine}/api` : '/api';
}

/** The page of a machine (null: the serving one's), opened on `route` when given. */
export function machinePageHref(machine: string | null, route?: Route): string {
  return `${machine ? `/machines/${encodeURIComponent(machine)}/` : '/'}${route ? routeHref(route) : ''}`;
}
