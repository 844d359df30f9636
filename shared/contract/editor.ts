import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema, TaskIdSchema } from '../entities/ids';
import { FolderPath } from './fields';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

const Position = z.number().int().min(1).max(100_000_000);

export const EDITOR_METHODS = {
  /**
   * Opens a file of the project (its folder or one of its agents' worktrees) at a line in the
   * person's editor (the editorCommand app setting), run by this host, detached. `file` is
   * absolute, or relative to the agent's worktree root (`agentId`: the Changes view's paths) or to
   * the task's folder (`taskId`: a path in its output). Refused outside the project, without an
   * editor set, and when the editor cannot start or fails at once. A terminal editor (the
   * `$EDITOR` program, see shared/editor.ts) runs in a new Shell agent, whose id the result carries.
   */
  openInEditor: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        file: FolderPath,
        agentId: AgentIdSchema.optional(),
        taskId: TaskIdSchema.optional(),
        line: Position.optional(),
        column: Position.optional(),
      })
      .strict()
      .refine((params) => params.agentId === undefined || params.taskId === undefined, 'give a file relative to an agent or to a task, not both'),
    result: z.object({ file: z.string(), line: Position, column: Position, argv: z.array(z.string()), agentId: AgentIdSchema.optional() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // The editor opens on the person's screen: an agent has its own tools for files.
    agents: 'refused',
  },
  /** The terminal editor this host would run for `$EDITOR`: its $VISUAL, else its $EDITOR; null when neither is set. */
  getTerminalEditor: {
    params: z.object({}).strict(),
    result: z.object({ variable: z.enum(['VISUAL', 'EDITOR']), command: z.string() }).nullable(),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type EditorMethodName = keyof typeof EDITOR_METHODS;
