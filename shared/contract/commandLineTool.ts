import { z } from 'zod';
import { CommandLineToolInstallSchema } from '../commandLineTool';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const COMMAND_LINE_TOOL_METHODS = {
  /**
   * "Install command line tool": writes a small `drover` launcher into ~/.local/bin that runs the
   * CLI with this Drover's own runtime (or reports the one the .deb put in /usr/bin).
   */
  installCommandLineTool: {
    params: z.object({}).strict(),
    result: CommandLineToolInstallSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type CommandLineToolMethodName = keyof typeof COMMAND_LINE_TOOL_METHODS;
