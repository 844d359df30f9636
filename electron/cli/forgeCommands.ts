import { MERGE_METHODS, MergeMethodSchema, pullRequestSummary, type ForgeLink, type MergeMethod, type PullRequest } from '../../shared/forge';
import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import { resolveProject, type CliContext } from './taskCommands';
import { quoted, withoutControls } from './terminalText';
import { UsageError } from './usage';
import { agentIdOf, table } from './worktreeCommands';

/** The first agent profile an issue's agent gets when `--profile` names none. */
const DEFAULT_ISSUE_PROFILE = 'claude';

function one(positionals: string[], usage: string): string {
  const [value, extra] = positionals;
  if (!value || extra !== undefined) throw new UsageError(`${usage} takes exactly one ${usage.startsWith('drover issue') ? 'issue number' : 'agent (its name or id)'}`);
  return value;
}

/** A pull request as the forge describes it: its title, branches, checks and problem are the forge's words, quoted where they hold control characters. */
function pullRequestText(pullRequest: PullRequest): string {
  const checks = pullRequest.checks.map((check) => [`  ${check.name}`, check.state, check.summary ?? '']);
  return (
    `${pullRequestSummary(pullRequest)}\n${quoted(pullRequest.title)}\n${quoted(pullRequest.url)}\n${quoted(pullRequest.headBranch)} → ${quoted(pullRequest.baseBranch)} at ${pullRequest.headSha.slice(0, 10)}\n` +
    (checks.length > 0 ? `checks:\n${table(checks)}\n` : 'no checks\n') +
    `review: ${pullRequest.reviewDecision}, ${pullRequest.reviewCommentIds.length} review comments; mergeable: ${pullRequest.mergeability}\n` +
    (pullRequest.problem ? `problem: ${withoutControls(pullRequest.problem)}\n` : '')
  );
}

function linkedPullRequest(link: ForgeLink): PullRequest {
  if (!link.pullRequest) throw new Error('Drover answered without the pull request.');
  return link.pullRequest;
}

/** `drover pr create|status|merge AGENT`: returns the exit code. */
export async function pullRequestCommand(args: string[], context: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create' && sub !== 'status' && sub !== 'merge') throw new UsageError(sub ? `Unknown pr command: ${sub}` : 'drover pr needs a command: create, status, merge');
  const { values, positionals } = parseCommandArgs(
    `drover pr ${sub}`,
    rest,
    {
      project: { type: 'string' },
      json: { type: 'boolean', default: false },
      title: { type: 'string' },
      body: { type: 'string' },
      draft: { type: 'boolean', default: false },
      method: { type: 'string' },
    },
    true,
  );
  const method = values.method === undefined ? undefined : MergeMethodSchema.safeParse(values.method);
  if (method && !method.success) throw new UsageError(`--method is one of ${MERGE_METHODS.join(', ')}, not ${values.method}`);
  const client = await connectToDrover(context.socketPath);
  try {
    const project = await resolveProject(client.rpc, values.project, context);
    const agentId = await agentIdOf(client.rpc, project, one(positionals, `drover pr ${sub}`));
    let link: ForgeLink;
    if (sub === 'create') {
      const draft = await client.rpc.call('draftPullRequest', { agentId });
      link = await client.rpc.call('createPullRequest', { agentId, title: values.title ?? draft.title, body: values.body ?? draft.body, draft: values.draft });
    } else if (sub === 'status') {
      link = await client.rpc.call('refreshPullRequest', { agentId });
    } else {
      const known = linkedPullRequest(await client.rpc.call('refreshPullRequest', { agentId }));
      const chosen: MergeMethod = method?.data ?? known.mergeMethods[0] ?? 'merge';
      link = await client.rpc.call('mergePullRequest', { agentId, method: chosen });
    }
    const pullRequest = linkedPullRequest(link);
    if (values.json) context.out(`${JSON.stringify(link, null, 2)}\n`);
    else if (sub === 'create') context.out(`Opened #${pullRequest.number}: ${quoted(pullRequest.url)}\n`);
    else if (sub === 'merge') context.out(`Merged #${pullRequest.number} into ${quoted(pullRequest.baseBranch)}. Archive the agent in Drover to remove its worktree (its branch goes, as it is merged).\n`);
    else context.out(pullRequestText(pullRequest));
    return 0;
  } finally {
    client.close();
  }
}

/** `drover issue list | start N`: returns the exit code. */
export async function issueCommand(args: string[], context: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'list' && sub !== 'start') throw new UsageError(sub ? `Unknown issue command: ${sub}` : 'drover issue needs a command: list, start');
  const { values, positionals } = parseCommandArgs(
    `drover issue ${sub}`,
    rest,
    {
      project: { type: 'string' },
      json: { type: 'boolean', default: false },
      search: { type: 'string' },
      label: { type: 'string', multiple: true },
      mine: { type: 'boolean', default: false },
      profile: { type: 'string' },
      name: { type: 'string' },
    },
    true,
  );
  let issueNumber = 0;
  if (sub === 'start') {
    const text = one(positionals, 'drover issue start').replace(/^#/, '');
    issueNumber = Number(text);
    if (!Number.isInteger(issueNumber) || issueNumber <= 0) throw new UsageError(`drover issue start takes an issue number, not ${text}`);
  } else if (positionals.length > 0) {
    throw new UsageError('drover issue list takes no arguments (use --search, --label, --mine)');
  }
  const client = await connectToDrover(context.socketPath);
  try {
    const project = await resolveProject(client.rpc, values.project, context);
    if (sub === 'start') {
      const agent = await client.rpc.call('startAgentOnIssue', { projectId: project.id, issueNumber, profileId: values.profile ?? DEFAULT_ISSUE_PROFILE, ...(values.name ? { name: values.name } : {}) });
      if (values.json) context.out(`${JSON.stringify(agent, null, 2)}\n`);
      else context.out(`Started ${quoted(agent.name)} on #${issueNumber} in its own worktree; the issue is typed in once it is ready.\n`);
      return 0;
    }
    const { issues } = await client.rpc.call('listForgeIssues', {
      projectId: project.id,
      ...(values.search ? { search: values.search } : {}),
      ...(values.label ? { labels: values.label } : {}),
      ...(values.mine ? { assignedToMe: true } : {}),
    });
    if (values.json) context.out(`${JSON.stringify(issues, null, 2)}\n`);
    else if (issues.length === 0) context.out(`No open issues of ${quoted(project.name)} match.\n`);
    else context.out(`${table([['#', 'TITLE', 'LABELS', 'ASSIGNEES'], ...issues.map((issue) => [`#${issue.number}`, issue.title, issue.labels.join(', '), issue.assignees.join(', ')])])}\n`);
    return 0;
  } finally {
    client.close();
  }
}
