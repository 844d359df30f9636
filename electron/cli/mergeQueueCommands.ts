import type { MergeQueueEntry } from '../../shared/entities/mergeQueue';
import { agentCredentials } from './agentCredentials';
import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import { resolveProject, type CliContext } from './taskCommands';
import { quoted } from './terminalText';
import { UsageError } from './usage';
import { agentIdOf, table } from './worktreeCommands';

const SUBCOMMANDS = ['add', 'list', 'remove', 'move', 'check-command', 'pause', 'resume'];

/** An entry as `list --json` prints it: the agent by name; a reason only where there is one. */
function listed(entry: MergeQueueEntry): { agent: string; branch: string; parent: string; state: MergeQueueEntry['state']; reason?: string } {
  return { agent: entry.agentName, branch: entry.branch, parent: entry.parentBranch, state: entry.state, ...(entry.reason === null ? {} : { reason: entry.reason }) };
}

function oneAgent(positionals: string[], command: string): string {
  const [agent, extra] = positionals;
  if (!agent || extra !== undefined) throw new UsageError(`drover merge-queue ${command} takes exactly one agent (its name or id)`);
  return agent;
}

/** `drover merge-queue ...`: returns the process exit code. */
export async function mergeQueueCommand(args: string[], context: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || !SUBCOMMANDS.includes(sub)) throw new UsageError(sub ? `Unknown merge-queue command: ${sub}` : `drover merge-queue needs a command: ${SUBCOMMANDS.join(', ')}`);
  const { values, positionals } = parseCommandArgs(`drover merge-queue ${sub}`, rest, { project: { type: 'string' }, json: { type: 'boolean', default: false } }, true);
  const client = await connectToDrover(context.socketPath, {}, { agent: agentCredentials(context.env) });
  const { rpc } = client;
  try {
    const project = await resolveProject(rpc, values.project, context);
    switch (sub) {
      case 'add': {
        const entry = await rpc.call('queueForMerge', { agentId: await agentIdOf(rpc, project, oneAgent(positionals, 'add')) });
        if (values.json) context.out(`${JSON.stringify(listed(entry), null, 2)}\n`);
        else context.out(`Queued ${quoted(entry.branch)} of ${quoted(entry.agentName)} for merge into ${quoted(entry.parentBranch)}.\n`);
        return 0;
      }
      case 'list': {
        const entries = await rpc.call('listMergeQueue', { projectId: project.id });
        if (values.json) context.out(`${JSON.stringify(entries.map(listed), null, 2)}\n`);
        else if (entries.length === 0) context.out(`The merge queue of ${quoted(project.name)} is empty.\n`);
        else context.out(`${table([['AGENT', 'BRANCH', 'PARENT', 'STATE', 'REASON'], ...entries.map((entry) => [entry.agentName, entry.branch, entry.parentBranch, entry.state, entry.reason ?? ''])])}\n`);
        return 0;
      }
      case 'remove': {
        await rpc.call('removeFromMergeQueue', { agentId: await agentIdOf(rpc, project, oneAgent(positionals, 'remove')) });
        return 0;
      }
      case 'move': {
        const [agent, place, extra] = positionals;
        const wanted = Number(place);
        if (!agent || extra !== undefined || !Number.isInteger(wanted) || wanted < 1) throw new UsageError('drover merge-queue move takes an agent and its new place among the waiting entries (1: next)');
        const entries = await rpc.call('moveInMergeQueue', { agentId: await agentIdOf(rpc, project, agent), place: wanted });
        if (values.json) context.out(`${JSON.stringify(entries.map(listed), null, 2)}\n`);
        return 0;
      }
      case 'check-command': {
        if (positionals.length > 1) throw new UsageError("drover merge-queue check-command takes the command as one word: quote it ('npm test'), or '' for none");
        const [command] = positionals;
        const settings =
          command === undefined ? await rpc.call('getProjectSettings', { projectId: project.id }) : await rpc.call('updateProjectSettings', { projectId: project.id, settings: { mergeCheckCommand: command } });
        if (values.json) context.out(`${JSON.stringify({ checkCommand: settings.mergeCheckCommand })}\n`);
        else if (command === undefined) context.out(settings.mergeCheckCommand ? `${settings.mergeCheckCommand}\n` : `No check command: ${quoted(project.name)}'s queue lands what rebases cleanly.\n`);
        return 0;
      }
      case 'pause':
      case 'resume': {
        const paused = sub === 'pause';
        await rpc.call('updateProjectSettings', { projectId: project.id, settings: { mergeQueuePaused: paused } });
        if (!values.json) context.out(paused ? 'The merge queue takes no next entry until drover merge-queue resume (one under way finishes).\n' : 'The merge queue goes on.\n');
        return 0;
      }
      default:
        return 2;
    }
  } finally {
    client.close();
  }
}
