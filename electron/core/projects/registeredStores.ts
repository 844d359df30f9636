import type { ProjectStore, ProjectStores } from '../storage/projectStores';
import type { ProjectRegistry } from './projectRegistry';

/** Every registered project's store that opens (a damaged one is skipped, not fatal). */
export function registeredStores(projects: ProjectRegistry, stores: ProjectStores): ProjectStore[] {
  return stores.usable(projects.list().projects.map((project) => project.id));
}
