import { z } from 'zod';
import { ProjectIdSchema } from '../entities/ids';
import { ProjectOverlapsSchema } from '../overlaps';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const OVERLAP_METHODS = {
  /** Which agents' worktrees change the same files and lines, and whose branches would conflict (with each other or their parent). */
  listOverlaps: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: ProjectOverlapsSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'own',
  },
} as const satisfies MethodTable;

export type OverlapMethodName = keyof typeof OVERLAP_METHODS;
