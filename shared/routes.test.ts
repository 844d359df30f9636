import { describe, expect, it } from 'vitest';
import { parseRoute, routeHref, type Route } from './routes';

describe('page routes', () => {
  it.each<Route>([
    { page: 'projects' },
    { page: 'settings' },
    { page: 'project', projectId: 'p/1 x' },
    { page: 'project', projectId: 'p1', focus: { agentId: 'a 1' } },
    { page: 'project', projectId: 'p1', focus: { taskId: 't&1' } },
  ])('reads back what it wrote: %j', (route) => {
    expect(parseRoute(routeHref(route))).toEqual(route);
  });

  it('reads a project link with an unknown query as the project alone', () => {
    expect(parseRoute('#/project/p1?other=x')).toEqual({ page: 'project', projectId: 'p1' });
  });

  it('reads a malformed escape as the projects page instead of throwing', () => {
    expect(parseRoute('#/project/%E0%A4%A')).toEqual({ page: 'projects' });
  });
});
