import { z } from 'zod';
import { ProjectIdSchema } from '../entities/ids';
import { ProjectListSchema, ProjectSchema, ProjectSettingsSchema, StatusSchema } from '../entities/projects';
import { ProjectWorkStateSchema, WorkStateCursorSchema } from '../entities/workState';
import { NonEmpty, FolderPath } from './fields';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const PROJECT_METHODS = {
  getStatus: {
    params: z.object({}).strict(),
    result: StatusSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  listProjects: {
    params: z.object({}).strict(),
    result: ProjectListSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  addProject: {
    params: z.object({ path: FolderPath }).strict(),
    result: ProjectSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  renameProject: {
    params: z.object({ projectId: ProjectIdSchema, name: NonEmpty.max(200) }).strict(),
    result: ProjectSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  removeProject: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: z.object({ projectId: ProjectIdSchema }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** Finds the registered project whose folder holds `path` (the deepest one). */
  findProjectByPath: {
    params: z.object({ path: FolderPath }).strict(),
    result: ProjectSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  getProjectSettings: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ProjectSettingsSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  updateProjectSettings: {
    params: z.object({ projectId: ProjectIdSchema, settings: ProjectSettingsSchema.partial().strict() }).strict(),
    result: ProjectSettingsSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /**
   * A snapshot of the project's work state, in parts of bounded size: the first part has `seq`,
   * the agents, sessions and wakes and the first tasks; while `next` is not null, ask again with
   * `after: next` for more tasks, then inbox messages. Later parts may hold versions newer than the
   * first part's `seq` (events carry them too); the snapshot's seq is the first part's.
   */
  getWorkState: {
    params: z.object({ projectId: ProjectIdSchema, after: WorkStateCursorSchema.optional() }).strict(),
    result: ProjectWorkStateSchema.extend({ next: WorkStateCursorSchema.nullable() }),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /**
   * A person's answer to a `data-missing` error: the project's state database is missing or empty,
   * and they choose to start the project with an empty work state (the other choice is to restore
   * the file from a backup and try again). A database that holds anything is never replaced.
   */
  startProjectEmpty: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ProjectSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type ProjectMethodName = keyof typeof PROJECT_METHODS;
