import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import { folderArgument, type CliContext } from './taskCommands';
import { quoted } from './terminalText';
import { UsageError } from './usage';
import { table } from './worktreeCommands';

/** `drover project add PATH | list [--json]`, on this machine or the one `--machine` names. */
export async function projectCommand(args: string[], context: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'add' && sub !== 'list') throw new UsageError(sub ? `Unknown project command: ${sub}` : 'drover project needs a command: add or list');
  const { values, positionals } = parseCommandArgs(`drover project ${sub}`, rest, { json: { type: 'boolean', default: false } }, sub === 'add');
  const client = await connectToDrover(context.socketPath);
  try {
    if (sub === 'list') {
      const { projects } = await client.rpc.call('listProjects', {});
      if (values.json) context.out(`${JSON.stringify(projects, null, 2)}\n`);
      else if (projects.length === 0) context.out(`No projects yet${context.machine ? ` on ${context.machine}` : ''}: drover project add PATH\n`);
      else context.out(`${table([['ID', 'NAME', 'PATH'], ...projects.map((p) => [p.id, p.name, p.path])])}\n`);
      return 0;
    }
    const [folder, extra] = positionals;
    if (!folder || extra !== undefined) throw new UsageError('drover project add takes one folder');
    const project = await client.rpc.call('addProject', { path: folderArgument(folder, context) });
    if (values.json) context.out(`${JSON.stringify(project, null, 2)}\n`);
    else context.out(`Project ${quoted(project.name)} (${project.id}) at ${quoted(project.path)}${context.machine ? ` on ${context.machine}` : ''}\n`);
    return 0;
  } finally {
    client.close();
  }
}
