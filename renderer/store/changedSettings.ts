import type { ProjectSettings } from '../../shared/entities/projects';

/** The entries of `entered` whose value differs from the settings the form was filled from. */
export function changedSettings(shown: ProjectSettings, entered: Partial<ProjectSettings>): Partial<ProjectSettings> {
  const changed: Partial<Record<keyof ProjectSettings, unknown>> = {};
  for (const key of Object.keys(entered) as (keyof ProjectSettings)[]) {
    if (entered[key] !== shown[key]) changed[key] = entered[key];
  }
  return changed as Partial<ProjectSettings>;
}
