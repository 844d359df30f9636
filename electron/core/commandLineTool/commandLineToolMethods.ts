import type { CommandLineToolMethodName } from '../../../shared/contract/commandLineTool';
import type { Methods } from '../api';
import { installCommandLineTool, type CommandLineToolSource } from './commandLineTool';

/** "Install command line tool", for the desktop menu, the Settings page and the command palette alike. */
export function commandLineToolMethods(source: CommandLineToolSource, env: NodeJS.ProcessEnv): Methods<CommandLineToolMethodName> {
  return {
    installCommandLineTool: () => installCommandLineTool(source, env),
  };
}
