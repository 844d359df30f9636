import type { CommandLineToolMethodName } from '../../../shared/contract/commandLineTool';
import type { Methods } from '../api';
import { installCommandLineTool, type CommandLineToolSource } from './commandLineTool';

/** "Install command line tool", for the desktop menu, the Settings page and the command palette alike: a `drover` that reaches this host's data dir. */
export function commandLineToolMethods(source: CommandLineToolSource, env: NodeJS.ProcessEnv, dataDir: string): Methods<CommandLineToolMethodName> {
  return {
    installCommandLineTool: () => installCommandLineTool(source, env, dataDir),
  };
}
