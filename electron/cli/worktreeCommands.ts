import type { Project } from '../../shared/entities/projects';
import type { MergeCheck, MergeStrategy, WorktreeDiff } from '../../shared/entities/worktrees';
import { pullRequestSummary } from '../../shared/forge';
import { countOf } from '../../shared/plural';
import type { RpcClient } from '../../shared/rpcClient';
import { isSavedWorkSubject } from '../common/savedWork';
import { agentCredentials } from './agentCredentials';
import { agentStates } from './agentStates';
import { conflictAlertsText, onOrOff, overlapsJson, overlapsText } from './overlapCommands';
import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import { resolveProject, type CliContext } from './taskCommands';
import { quoted, table } from './terminalText';
import { Refusal, UsageError } from './usage';

export { table } from './terminalText';

/** The agent of the project named by id or by name (names are unique in a project, in any case). */
export async function agentIdOf(rpc: RpcClient, project: Project, agent: string): Promise<string> {
  const { agents } = await rpc.call('getWorkState', { projectId: project.id });
  const found = agents.find((candidate) => candidate.id === agent || candidate.name.toLowerCase() === agent.toLowerCase());
  if (!found) throw new Refusal(`No agent ${agent} in ${project.name} (agents: ${agents.map((candidate) => candidate.name).join(', ') || 'none yet'}).`);
  return found.id;
}

function agentArgument(positionals: string[], command: string): string {
  const [agent, extra] = positionals;
  if (!agent || extra !== undefined) throw new UsageError(`drover worktree ${command} takes exactly one agent (its name or id)`);
  return agent;
}

/** A diff as git prints it; a file too large to send is named (quoted) with the git command that shows it. */
export function patchText(files: readonly { path: string; patch: string | null }[], showWith: string): string {
  return files.map((file) => file.patch ?? `# ${quoted(file.path)}: too large to show here; run ${showWith}\n`).join('');
}

/** `--stat`: a row per changed file (none, and no blank line, when nothing changed), then the summary line. */
export function statText(rows: string[][], totals: { files: number; additions: number; deletions: number }, after = ''): string {
  return `${rows.length > 0 ? `${table(rows)}\n` : ''}${countOf(totals.files, 'file')} changed, +${totals.additions} -${totals.deletions}${after}\n`;
}

function worktreeStatText(diff: WorktreeDiff): string {
  const rows = diff.files.map((file) => [file.path, `+${file.additions}`, `-${file.deletions}`, file.binary ? 'binary' : '', file.origins.join(', ')]);
  const totals = { files: diff.files.length, additions: diff.additions, deletions: diff.deletions };
  return statText(rows, totals, `, ${countOf(diff.commits.length, 'commit')} on ${quoted(diff.branch)} since ${quoted(diff.parentBranch)}`);
}

/**
 * What `drover worktree merge` would do, said before anything is done: how the parent moves, each
 * commit it takes (Drover's own commit of a removed agent's uncommitted work named as such), and
 * what stops it now, if anything. `commits` are the diff's, newest first.
 */
function mergePreview(check: MergeCheck, commits: WorktreeDiff['commits'], strategy: MergeStrategy): string {
  const { branch, parentBranch: parent, ahead, behind } = check;
  const how =
    strategy === 'squash'
      ? `add one commit to ${quoted(parent)} holding the ${countOf(ahead, 'commit')} of ${quoted(branch)}`
      : behind > 0
        ? `replay the ${countOf(ahead, 'commit')} of ${quoted(branch)} on the ${countOf(behind, 'commit')} ${quoted(parent)} gained since, then fast-forward ${quoted(parent)} to them`
        : `fast-forward ${quoted(parent)} by the ${countOf(ahead, 'commit')} of ${quoted(branch)}`;
  // Oldest first, the order they land in.
  const lines = [...commits].reverse().map((commit) => `  ${commit.sha.slice(0, 10)} ${quoted(commit.subject)}${isSavedWorkSubject(commit.subject) ? '   (Drover committed this: uncommitted work of a removed agent)' : ''}`);
  const verdict = check.problem === null ? 'Nothing was changed (--check).' : `It would not merge now: ${check.problem}`;
  return `${[`Merging would ${how}${lines.length > 0 ? ':' : '.'}`, ...lines, verdict].join('\n')}\n`;
}

const SUBCOMMANDS = ['list', 'diff', 'merge', 'overlaps'];

/** `drover worktree ...`: returns the process exit code. */
export async function worktreeCommand(args: string[], context: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || !SUBCOMMANDS.includes(sub)) throw new UsageError(sub ? `Unknown worktree command: ${sub}` : `drover worktree needs a command: ${SUBCOMMANDS.join(', ')}`);
  const { values, positionals } = parseCommandArgs(
    `drover worktree ${sub}`,
    rest,
    {
      project: { type: 'string' },
      json: { type: 'boolean', default: false },
      stat: { type: 'boolean', default: false },
      squash: { type: 'boolean', default: false },
      message: { type: 'string', short: 'm' },
      'hand-back': { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      alerts: { type: 'string' },
      tell: { type: 'string' },
    },
    true,
  );
  const client = await connectToDrover(context.socketPath, {}, { agent: agentCredentials(context.env) });
  const { rpc } = client;
  try {
    const project = await resolveProject(rpc, values.project, context);
    switch (sub) {
      case 'list': {
        const [listed, { forgeLinks, sessions }] = await Promise.all([rpc.call('listWorktrees', { projectId: project.id }), rpc.call('getWorkState', { projectId: project.id })]);
        const agentState = agentStates(sessions);
        if (values.json) context.out(`${JSON.stringify(listed, null, 2)}\n`);
        else if (listed.length === 0) context.out(`No agent of ${quoted(project.name)} has a worktree of its own.\n`);
        else {
          const header = ['AGENT', 'BRANCH', 'PARENT', 'AHEAD', 'BEHIND', 'UNCOMMITTED', 'STATE', 'PULL REQUEST', 'PATH'];
          const pullRequests = new Map(forgeLinks.flatMap((link) => (link.pullRequest ? [[link.agentId, pullRequestSummary(link.pullRequest)] as const] : [])));
          const rows = listed.map(({ agentName, worktree, status }) => [
            agentName,
            worktree.branch,
            worktree.parentBranch,
            String(status?.ahead ?? '-'),
            String(status?.behind ?? '-'),
            String(status?.uncommittedFiles ?? '-'),
            // The agent's state; a worktree being made, or gone from disk, says so too.
            worktree.state === 'ready' ? agentState(worktree.agentId) : `${agentState(worktree.agentId)}, worktree ${worktree.state}`,
            pullRequests.get(worktree.agentId) ?? '-',
            worktree.path,
          ]);
          context.out(`${table([header, ...rows])}\n`);
        }
        return 0;
      }
      case 'diff': {
        const agentId = await agentIdOf(rpc, project, agentArgument(positionals, 'diff'));
        const diff = await rpc.call('getWorktreeDiff', { agentId });
        if (values.json) context.out(`${JSON.stringify(diff, null, 2)}\n`);
        else if (values.stat) context.out(worktreeStatText(diff));
        else {
          const { worktrees } = await rpc.call('getWorkState', { projectId: project.id });
          const folder = worktrees.find((worktree) => worktree.agentId === agentId)?.path ?? 'the worktree';
          context.out(patchText(diff.files, `git diff ${diff.base} in ${quoted(folder)}`));
        }
        return 0;
      }
      case 'merge': {
        if (values.check && values['hand-back']) throw new UsageError('drover worktree merge --check changes nothing, so it hands nothing back: leave out --hand-back');
        const agentId = await agentIdOf(rpc, project, agentArgument(positionals, 'merge'));
        const check = await rpc.call('checkWorktreeMerge', { agentId });
        if (values.check) {
          const { commits } = await rpc.call('getWorktreeDiff', { agentId });
          if (values.json) context.out(`${JSON.stringify({ ...check, commits }, null, 2)}\n`);
          else context.out(mergePreview(check, commits, values.squash ? 'squash' : 'rebase'));
          return check.problem === null ? 0 : 2;
        }
        if (check.conflicts.length > 0 && values['hand-back']) {
          const note = await rpc.call('handBackWorktreeConflicts', { agentId });
          process.stderr.write(`drover: handed the conflicts back to the agent (message ${note.id}).\n`);
        }
        const merged = await rpc.call('mergeWorktree', { agentId, strategy: values.squash ? 'squash' : 'rebase', ...(values.message ? { message: values.message } : {}) });
        if (values.json) context.out(`${JSON.stringify(merged, null, 2)}\n`);
        else context.out(`Merged ${quoted(check.branch)} into ${quoted(merged.parentBranch)} (${merged.strategy}, ${merged.commits} ${merged.commits === 1 ? 'commit' : 'commits'}): ${merged.commit}\n`);
        return 0;
      }
      case 'overlaps': {
        if (values.alerts !== undefined && values.tell !== undefined) throw new UsageError('drover worktree overlaps takes --alerts or --tell, one at a time');
        if (values.alerts !== undefined) {
          const on = onOrOff(values.alerts);
          await rpc.call('updateProjectSettings', { projectId: project.id, settings: { conflictAlerts: on } });
          context.out(conflictAlertsText(on, project.name));
          return 0;
        }
        if (values.tell !== undefined) {
          const names = values.tell.split(',').map((name) => name.trim());
          const [first, second] = names;
          if (names.length !== 2 || !first || !second) throw new UsageError('drover worktree overlaps --tell takes two agents, comma-separated: --tell alpha,beta');
          const told = await rpc.call('tellOverlapAgents', { projectId: project.id, agents: [await agentIdOf(rpc, project, first), await agentIdOf(rpc, project, second)] });
          if (values.json) context.out(`${JSON.stringify(told, null, 2)}\n`);
          else context.out(`Told ${quoted(first)} and ${quoted(second)} where their branches conflict (a note in each inbox).\n`);
          return 0;
        }
        const overlaps = await rpc.call('listOverlaps', { projectId: project.id });
        context.out(values.json ? overlapsJson(overlaps) : overlapsText(overlaps, project.name));
        return 0;
      }
      default:
        return 2;
    }
  } finally {
    client.close();
  }
}
