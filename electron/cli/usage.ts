/** A mistake in how the command was called; reported with exit code 2 and a pointer to `drover help`. */
export class UsageError extends Error {}

/**
 * A request this CLI turns down though it was called right (an agent or project that is not there,
 * no terminal to ask on): exit code 2, as for a request Drover refused, with no pointer to the usage.
 */
export class Refusal extends Error {}

export const USAGE = `Usage:
  drover help [COMMAND]   (or drover COMMAND --help: that command's lines only)
  drover serve [--data-dir D] [--port N] [--host 127.0.0.1] [--allow-origin URL]... [--new-token] [--project PATH]
  drover host start | status [--json] | stop [--force] | restart [--force] | run | connect   [--data-dir D]
  drover machine add NAME DESTINATION [-p PORT] | list [--json] | remove NAME
  drover project add PATH [--json] | list [--json]
  drover status [--json]
  drover task run [--project ID|PATH] [--agent NAME] [--label L] [--cwd DIR] [--json] -- CMD...
  drover task list [--project ID|PATH] [--json]
  drover task show ID [--json]
  drover task logs ID [--follow]
  drover task cancel ID [--json]
  drover task retry ID [--json]
  drover worktree list [--project ID|PATH] [--json]
  drover worktree diff AGENT [--stat] [--json]
  drover worktree merge AGENT [--squash] [-m MESSAGE] [--hand-back] [--check] [--json]
  drover worktree overlaps [--project ID|PATH] [--json]   (agents changing the same lines; conflicting branches)
  drover worktree overlaps --alerts on|off [--project ID|PATH]   (a new conflict between two agents needs you)
  drover worktree overlaps --tell AGENT,AGENT [--project ID|PATH] [--json]   (a note to each of two conflicting agents)
  drover merge-queue add AGENT [--project ID|PATH] [--json]   (lands the agent's branch on its parent in turn)
  drover merge-queue list [--project ID|PATH] [--json]
  drover merge-queue remove AGENT [--project ID|PATH]
  drover merge-queue move AGENT PLACE [--project ID|PATH] [--json]   (1: the next to go among those waiting)
  drover merge-queue check-command [--project ID|PATH] [CMD] [--json]   (shows, or sets, the check; '' for none)
  drover merge-queue pause | resume [--project ID|PATH]
  drover inbox [--agent NAME] [--all] [--json]   (an agent's new messages in full, then marked read)
  drover pr create AGENT [--title T] [--body B] [--draft] [--json]
  drover pr status AGENT [--json]
  drover pr merge AGENT [--method merge|squash|rebase] [--json]
  drover issue list [--search TEXT] [--label L]... [--mine] [--json]
  drover issue start N [--profile P] [--name NAME] [--json]
  drover turns AGENT [--project ID|PATH] [--json]       (the agent's checkpoints, one per turn; 0 is its start)
  drover turns diff AGENT N [M] [--stat] [--json]       (what checkpoint N, or N through M, changed)
  drover turns restore AGENT N [--json]                 (the worktree back as checkpoint N had it; undoable)
  drover automation add NAME [--project ID|PATH] (--cron EXPR | --on EVENT) (--task CMD [--cwd DIR] [--owner AGENT] | --agent PROFILE --prompt TEXT [--base BRANCH] | --message AGENT --text TEXT) [--time-zone TZ] [--daily-cap N] [--catch-up-minutes M] [--json]
  drover automation edit NAME [--project ID|PATH] [the flags of add: only those given change] [--json]
  drover automation list [--project ID|PATH] [--json]   (name, trigger, action, state, next run, last run)
  drover automation history NAME [--project ID|PATH] [--json]
  drover automation run|pause|resume|remove NAME [--project ID|PATH] [--json]
  drover automation next [--project ID|PATH] [--json]   (what would run, and when)
  drover mcp [--project ID|PATH]  (stdio MCP server for agent CLIs: run_in_background, inbox, ask_agent, ...)
  drover hook CLI [EVENT]      (run by agent CLIs' hooks; reports busy/ready to Drover, always exits 0)

--machine NAME before a command runs it on that machine's Drover (status, project, task, worktree,
merge-queue, inbox, pr, issue, turns, automation), over ssh: paths are that machine's, absolute. host connect pipes the
host's socket on stdin and stdout (what another machine's Drover runs over ssh).
serve opens the browser door of the data dir's host, starting the host when none runs; stopping
serve closes the door only: agents and tasks keep running until drover host stop. --port 0 (the
default) reuses the port of the last serve when it is free.
Several words after -- are run as they are, each one word (like env or timeout):
drover task run -- npm test -- --grep "a b". One word is a line for your shell:
drover task run -- 'make && make test'.
A task runs in its owner's folder (the agent's worktree, or the project folder for an agent without
one); with no owner, in the folder you run drover in when that is inside the project, else the
project folder. --cwd names another, inside the project or an agent's worktree.
Inside an agent terminal the project and agent come from DROVER_SOCKET, DROVER_PROJECT_ID,
DROVER_AGENT_ID and DROVER_AGENT_PROOF, and the command acts for that agent. Elsewhere the socket is found from --data-dir, DROVER_DATA_DIR or the default data dir.
drover worktree merge checks for conflicts first (git merge-tree) and refuses with exit code 2,
naming the files; --hand-back then posts them to the agent to rebase and resolve. --check says what
the merge would do (its commits, and what stops it now) and does nothing (exit code 2 when it would not merge).
The merge queue takes each parent branch's entries in turn: it rebases the branch on the parent,
runs the check command in the agent's worktree (a background task), and fast-forwards the parent
only if the check passed and the parent did not move meanwhile (then it rebases and checks again).
A conflict or a failed check hands the entry back to its agent's inbox, and the queue goes on.
drover task logs --follow ends with how the task ended (on stderr).
drover automation: EXPR is five cron fields or @hourly, @daily, @weekly, @monthly, @yearly, read in your
time zone; EVENT is issue-labelled=LABEL or issue-opened (the project's GitHub issues, each once, with
{issue.number}, {issue.title}, {issue.body}, {issue.url}), check-failed=BRANCH (each failed check run of
the branch's tip, with {check.name}, {check.summary}, {check.url}), changes-requested (on an agent's pull
request, once per head commit, with {pr.number}, {pr.title}, {pr.url}, {pr.branch}), agent-failed[=AGENT]
(an agent's process ended with an error or could not start, with {agent.name}, {agent.exitCode},
{agent.reason}), or task-succeeded=LABEL, task-failed=LABEL or
task-ended=LABEL, whose task's label and exit code reach the follow-up as DROVER_EVENT_TASK_LABEL and DROVER_EVENT_TASK_EXIT_CODE and as
{task.label}, {task.exitCode} and {task.tail} in CMD or TEXT. --agent starts a new agent (automation-N) in
its own worktree from BRANCH (default: the project's current branch), its first prompt TEXT. The host runs automations with no window
open: one run at a time, at most --daily-cap a day (48), a schedule missed while the host was down
once if it is less than --catch-up-minutes late (60), and three failures in a row pause it.
drover automation edit changes only what its flags give, keeping the rule's runs and state: --cron alone
keeps the time zone, --cwd or --prompt alone the rest of the action; an empty --cwd, --owner or --base
goes back to the default.
drover pr create pushes the agent's branch (that branch only) and opens its pull request against
the branch it started from; drover issue start makes an agent in its own worktree whose first
prompt is the issue (default profile: claude).
Exit codes: 0 ok, 1 Drover unreachable or internal error, 2 bad usage or a request Drover refused,
3 the task that drover task logs --follow followed did not succeed.`;

/**
 * The usage lines of one command, as `drover task run --help` prints them: the lines of the longest
 * run of leading words that names one (`drover worktree merge alpha --help` prints worktree merge's);
 * null when no command has those words.
 */
export function usageOf(words: readonly string[]): string | null {
  const lines = USAGE.split('\n').filter((line) => line.startsWith('  drover '));
  for (let count = words.length; count > 0; count--) {
    const prefix = `  drover ${words.slice(0, count).join(' ')}`;
    const matching = lines.filter((line) => line === prefix || line.startsWith(`${prefix} `));
    if (matching.length > 0) return `Usage:\n${matching.join('\n')}`;
  }
  return null;
}
