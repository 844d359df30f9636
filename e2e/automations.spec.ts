import fs from 'node:fs';
import path from 'node:path';
import type { Automation, AutomationRun } from '../shared/automations';
import { runCli } from '../test-support/droverProcess';
import { FAKE_PROFILE } from '../test-support/fakeAgentProfile';
import { FakeGitHub } from '../test-support/fakeGitHub';
import { addBareOrigin, makeRepo } from '../test-support/gitRepo';
import { saveProfiles, SHELL_AGENT_PROFILE } from './support/agents';
import { needsYouButton, withSocket } from './support/attention';
import { expect, test, type DroverWorld } from './support/droverHost';
import { runTask } from './support/workState';

/** Runs `drover automation ...` against the test's host; fails the test on a refusal. */
async function automation(drover: DroverWorld, folder: string, ...args: string[]): Promise<string> {
  const result = await runCli(['--data-dir', drover.dataDir, 'automation', ...args, '--project', folder]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

async function history(drover: DroverWorld, folder: string, name: string): Promise<AutomationRun[]> {
  return JSON.parse(await automation(drover, folder, 'history', name, '--json')) as AutomationRun[];
}

/** A host with a project in a new folder, and a Shell agent named Fixer in it. */
async function projectWithFixer(drover: DroverWorld, folderName: string): Promise<{ folder: string; agentId: string }> {
  const folder = drover.makeFolder(folderName);
  await drover.startHost(['--project', folder]);
  const agentId = await withSocket(drover, async (rpc) => {
    const project = await rpc.call('findProjectByPath', { path: folder });
    return (await rpc.call('createAgent', { projectId: project.id, name: 'Fixer', role: '', profileId: 'shell' })).id;
  });
  return { folder, agentId };
}

const linesOf = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

test('the host runs an every-minute schedule twice with no page open, and a paused automation runs nothing', async ({ drover }) => {
  // Two real minute boundaries: the schedule is the host's clock, not the test's.
  test.setTimeout(200_000);
  const folder = drover.makeFolder('nightly');
  await drover.startHost(['--project', folder]);
  const ticks = path.join(folder, 'ticks.txt');
  const pausedTicks = path.join(folder, 'paused.txt');
  expect(await automation(drover, folder, 'add', 'tick', '--cron', '* * * * *', '--task', `date +%H:%M >> ${ticks}`)).toMatch(/^Added automation tick: cron \* \* \* \* \* -> task: date/);
  await automation(drover, folder, 'add', 'held', '--cron', '* * * * *', '--task', `date >> ${pausedTicks}`);
  expect(await automation(drover, folder, 'pause', 'held')).toBe('held is paused.\n');

  const next = await automation(drover, folder, 'next');
  expect(next.split('\n').filter((line) => line.includes(' tick '))).toHaveLength(3);
  expect(next).toMatch(/^paused\s+held\s+task: date/m);

  await expect.poll(() => linesOf(ticks).length, { timeout: 150_000, intervals: [2_000] }).toBe(2);
  const [second, first] = await history(drover, folder, 'tick');
  expect(first).toMatchObject({ state: 'succeeded', trigger: expect.stringMatching(/^schedule \d{4}-\d\d-\d\dT\d\d:\d\dZ$/) });
  // The second run waits for the first's task to end, which the host records.
  await expect.poll(async () => (await history(drover, folder, 'tick'))[0]?.state).toBe('succeeded');
  expect(second?.trigger).not.toBe(first?.trigger);
  expect(new Set(linesOf(ticks)).size).toBe(2);

  expect(fs.existsSync(pausedTicks)).toBe(false);
  expect(await history(drover, folder, 'held')).toEqual([]);
  const listed = JSON.parse(await automation(drover, folder, 'list', '--json')) as { name: string; enabled: boolean; nextRunAt: number | null; lastRun: unknown }[];
  expect(listed.find((row) => row.name === 'held')).toMatchObject({ enabled: false, nextRunAt: null, lastRun: null });
  expect(listed.find((row) => row.name === 'tick')?.nextRunAt).toEqual(expect.any(Number));
});

test("a task-failed rule starts its follow-up with the failed task's label and exit code", async ({ drover }) => {
  const folder = drover.makeFolder('builds');
  await drover.startHost(['--project', folder]);
  const report = path.join(folder, 'report.txt');
  await automation(drover, folder, 'add', 'on-broken-build', '--on', 'task-failed=build', '--task', `echo "$DROVER_EVENT_TASK_LABEL $DROVER_EVENT_TASK_EXIT_CODE" {task.label} {task.exitCode} {task.tail} >> ${report}`);

  // A build that succeeds, or another label that fails, sets nothing off.
  await runTask(drover, folder, 'echo fine', 'build');
  await runTask(drover, folder, 'exit 4', 'lint');
  const failed = await runTask(drover, folder, 'echo "no space left"; exit 7', 'build');
  await expect.poll(() => linesOf(report)).toEqual(['build 7 build 7 no space left']);

  const [run] = await history(drover, folder, 'on-broken-build');
  expect(run).toMatchObject({ state: 'succeeded', trigger: 'task build failed (exit code 7)' });
  const followUp = JSON.parse((await runCli(['--data-dir', drover.dataDir, 'task', 'show', run!.taskId!, '--json'])).stdout) as { label: string; command: string };
  expect(followUp.label).toBe('on-broken-build');
  expect(followUp.command).toContain('DROVER_EVENT_TASK_EXIT_CODE=7');
  expect(run?.taskId).not.toBe(failed);
});

test("a task rule's task can belong to an agent: its result goes to that agent's inbox", async ({ drover }) => {
  const { folder, agentId } = await projectWithFixer(drover, 'owned');
  await automation(drover, folder, 'add', 'lint-after-build', '--on', 'task-succeeded=build', '--task', 'echo "lint clean"', '--owner', 'Fixer');
  expect(await automation(drover, folder, 'list')).toContain("task (Fixer's): echo \"lint clean\"");
  await runTask(drover, folder, 'true', 'build');
  await expect.poll(async () => (await history(drover, folder, 'lint-after-build')).map((entry) => entry.state)).toEqual(['succeeded']);
  const [run] = await history(drover, folder, 'lint-after-build');
  const task = await withSocket(drover, (rpc) => rpc.call('getTask', { taskId: run!.taskId! }));
  expect(task.ownerAgentId).toBe(agentId);
  await expect.poll(async () => (await withSocket(drover, (rpc) => rpc.call('listInbox', { agentId }))).messages.map((message) => message.kind)).toContain('task-result');
  const refused = await runCli(['--data-dir', drover.dataDir, 'automation', 'add', 'orphan', '--project', folder, '--cron', '@daily', '--task', 'true', '--owner', 'Nobody']);
  expect(refused.stderr).toContain('There is no agent Nobody');
});

test("a message rule posts to the agent's inbox, and Run now runs a paused rule once", async ({ drover }) => {
  const { folder, agentId } = await projectWithFixer(drover, 'messages');
  await automation(drover, folder, 'add', 'nudge', '--on', 'task-failed=e2e', '--message', 'Fixer', '--text', 'e2e failed with {task.exitCode}: {task.tail}');
  await runTask(drover, folder, 'echo "3 specs broke"; exit 5', 'e2e');
  const inbox = () => withSocket(drover, async (rpc) => (await rpc.call('listInbox', { agentId })).messages.map((message) => message.body));
  await expect.poll(inbox).toEqual(['From automation nudge: e2e failed with 5: 3 specs broke']);

  await automation(drover, folder, 'pause', 'nudge');
  expect(await automation(drover, folder, 'run', 'nudge')).toBe(`succeeded (agent ${agentId})\n`);
  expect((await inbox()).at(-1)).toBe('From automation nudge: e2e failed with : ');
  expect((await history(drover, folder, 'nudge')).map((run) => run.trigger)).toEqual(['run now', 'task e2e failed (exit code 5)']);
});

test('a task-failed rule starts one agent in its own worktree from the base branch, its first prompt the filled template', async ({ drover }) => {
  const folder = makeRepo(path.join(drover.root, 'shop'), { 'README.md': 'hello\n' });
  await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [FAKE_PROFILE]);
  await automation(drover, folder, 'add', 'fixer', '--on', 'task-failed=build', '--agent', 'fake', '--base', 'main', '--prompt', 'The build failed with exit code {task.exitCode}: {task.tail}');
  await runTask(drover, folder, 'echo "undefined symbol"; exit 2', 'build');

  const workState = () => withSocket(drover, (rpc) => rpc.call('getWorkState', { projectId }));
  await expect.poll(async () => (await workState()).worktrees.map((worktree) => worktree.state)).toEqual(['ready']);
  const { agents, worktrees } = await workState();
  expect(agents.map((agent) => agent.name)).toEqual(['fixer-1']);
  expect(worktrees[0]).toMatchObject({ agentId: agents[0]!.id, parentBranch: 'main' });
  const inbox = await withSocket(drover, (rpc) => rpc.call('listInbox', { agentId: agents[0]!.id }));
  expect(inbox.messages.map((message) => message.body)).toEqual(['The build failed with exit code 2: undefined symbol']);
  const [run] = await history(drover, folder, 'fixer');
  expect(run).toMatchObject({ state: 'succeeded', agentId: agents[0]!.id, trigger: 'task build failed (exit code 2)' });
  expect(await automation(drover, folder, 'list')).toMatch(/fixer\s+task build failed\s+agent \(fake from main\): The build failed/);
});

test('an issue labelled agent starts one agent in its own worktree whose first prompt holds the issue, once', async ({ drover }) => {
  const token = 'ghp_e2etoken0123456789';
  const repo = makeRepo(path.join(drover.root, 'shop'), { 'README.md': 'hello\n' });
  const fake = new FakeGitHub({ repository: 'acme/shop', bareRepo: addBareOrigin(repo, path.join(drover.root, 'remote.git')), token });
  await fake.listen();
  try {
    await drover.startHost(['--project', repo], { ...process.env, DROVER_GITHUB_API_URL: fake.url, GH_TOKEN: token, DROVER_GITHUB_POLL_MS: '300' });
    const projectId = await saveProfiles(drover, repo, [FAKE_PROFILE]);
    await withSocket(drover, (rpc) => rpc.call('updateProjectSettings', { projectId, settings: { forgeRepository: 'acme/shop' } }));
    fake.addIssue({ title: 'Dark mode', body: 'Please.', labels: ['feature'], assignees: [], author: 'designer' });
    await automation(drover, repo, 'add', 'triage', '--on', 'issue-labelled=agent', '--agent', 'fake', '--prompt', 'Issue #{issue.number}: {issue.title}\n\n{issue.body}');
    const number = fake.addIssue({ title: 'Cart drops the last item', body: 'Put three items in the cart: it shows two.', labels: ['bug', 'agent'], assignees: [], author: 'customer' });

    const workState = () => withSocket(drover, (rpc) => rpc.call('getWorkState', { projectId }));
    await expect.poll(async () => (await workState()).worktrees.map((worktree) => worktree.state)).toEqual(['ready']);
    const { agents } = await workState();
    const inbox = await withSocket(drover, (rpc) => rpc.call('listInbox', { agentId: agents[0]!.id }));
    expect(inbox.messages.map((message) => message.body)).toEqual([`Issue #${number}: Cart drops the last item\n\nPut three items in the cart: it shows two.`]);
    // Later polls see the same issue and start nothing more.
    const issueReads = () => fake.requests.filter((request) => request.url.includes('/issues')).length;
    const readsBefore = issueReads();
    await expect.poll(issueReads).toBeGreaterThan(readsBefore + 3);
    expect((await workState()).agents).toHaveLength(1);
    expect((await history(drover, repo, 'triage')).map((run) => [run.state, run.trigger])).toEqual([['succeeded', `issue #${number} labelled agent`]]);
  } finally {
    await fake.close();
  }
});

test("a check failing on main sets its rule off once for each failed check run, with the check's name and what it says", async ({ drover }) => {
  const token = 'ghp_e2etoken0123456789';
  const repo = makeRepo(path.join(drover.root, 'shop'), { 'README.md': 'hello\n' });
  const fake = new FakeGitHub({ repository: 'acme/shop', bareRepo: addBareOrigin(repo, path.join(drover.root, 'remote.git')), token });
  await fake.listen();
  try {
    await drover.startHost(['--project', repo], { ...process.env, DROVER_GITHUB_API_URL: fake.url, GH_TOKEN: token, DROVER_GITHUB_POLL_MS: '300' });
    await withSocket(drover, async (rpc) => {
      const project = await rpc.call('findProjectByPath', { path: repo });
      await rpc.call('updateProjectSettings', { projectId: project.id, settings: { forgeRepository: 'acme/shop' } });
    });
    const report = path.join(drover.root, 'red-main.log');
    const said = (check: string) => path.join(drover.root, `${check}.said`);
    await automation(drover, repo, 'add', 'red-main', '--on', 'check-failed=main', '--task', `printf '%s\\n' {check.name} >> ${report}; printf '%s' {check.summary} > ${drover.root}/{check.name}.said`);
    fake.setChecks(fake.headOf('main'), 'failed');

    await expect.poll(() => linesOf(report), { timeout: 30_000 }).toEqual(['build', 'test (node 20)']);
    expect(fs.readFileSync(said('build'), 'utf8')).toMatch(/^1 test failed[\s\S]*src\/cart\.js:3: /);
    // Later polls see the same failed runs and start nothing more.
    const checkReads = () => fake.requests.filter((request) => request.url.includes('/check-runs')).length;
    const readsBefore = checkReads();
    await expect.poll(checkReads).toBeGreaterThan(readsBefore + 3);
    expect((await history(drover, repo, 'red-main')).map((run) => [run.state, run.trigger])).toEqual([
      ['succeeded', 'check test (node 20) failed on main'],
      ['succeeded', 'check build failed on main'],
    ]);
  } finally {
    await fake.close();
  }
});

test("an agent start waits while its profile's account is paused, and starts once the account resumes", async ({ drover }) => {
  const folder = makeRepo(path.join(drover.root, 'shop'), { 'README.md': 'hello\n' });
  await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [FAKE_PROFILE]);
  const { key } = await withSocket(drover, async (rpc) => {
    const other = await rpc.call('createAgent', { projectId, name: 'other', role: '', profileId: 'fake' });
    return (await rpc.call('pauseAgentAccount', { agentId: other.id })).account;
  });
  await automation(drover, folder, 'add', 'fixer', '--on', 'task-failed=build', '--agent', 'fake', '--prompt', 'Fix the build');
  await runTask(drover, folder, 'exit 2', 'build');
  await expect.poll(async () => (await history(drover, folder, 'fixer')).map((run) => run.state)).toEqual(['running']);
  // Long enough for an unheld start to have made its agent and worktree (the test above takes under a second for it).
  await runTask(drover, folder, 'sleep 2', 'meanwhile');
  const agentNames = async () => (await withSocket(drover, (rpc) => rpc.call('getWorkState', { projectId }))).agents.map((agent) => agent.name);
  expect(await agentNames()).toEqual(['other']);
  expect((await history(drover, folder, 'fixer')).map((run) => run.state)).toEqual(['running']);

  await withSocket(drover, (rpc) => rpc.call('resumeAccount', { key }));
  await expect.poll(async () => (await history(drover, folder, 'fixer')).map((run) => run.state)).toEqual(['succeeded']);
  expect(await agentNames()).toEqual(['other', 'fixer-1']);
});

test("an agent that fails sets its rule off with its name and exit code; one stopped by the person does not", async ({ drover }) => {
  const folder = drover.makeFolder('crashes');
  await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [{ ...SHELL_AGENT_PROFILE, id: 'crashy', name: 'Exits with 3', args: ['-c', 'exit 3'] }, SHELL_AGENT_PROFILE]);
  const report = path.join(drover.root, 'failures.log');
  await automation(drover, folder, 'add', 'on-crash', '--on', 'agent-failed', '--task', `printf '%s %s\\n' {agent.name} {agent.exitCode} >> ${report}`);
  await withSocket(drover, async (rpc) => {
    const steady = await rpc.call('createAgent', { projectId, name: 'steady', role: '', profileId: 'sh' });
    await rpc.call('startAgent', { agentId: steady.id, resume: false });
    await rpc.call('stopAgent', { agentId: steady.id });
    const crashy = await rpc.call('createAgent', { projectId, name: 'crashy', role: '', profileId: 'crashy' });
    await rpc.call('startAgent', { agentId: crashy.id, resume: false });
  });
  await expect.poll(() => linesOf(report), { timeout: 30_000 }).toEqual(['crashy 3']);
  expect((await history(drover, folder, 'on-crash')).map((run) => run.trigger)).toEqual(['agent crashy failed (exited)']);
});

test('an automation that fails three times in a row pauses itself and needs the person, until it is resumed', async ({ page, drover }) => {
  const folder = drover.makeFolder('flaky');
  const url = await drover.startHost(['--project', folder]);
  await automation(drover, folder, 'add', 'flaky', '--cron', '0 3 * * *', '--task', 'echo "no network"; exit 1');
  await page.goto(url);
  for (let run = 1; run <= 3; run++) {
    await runCli(['--data-dir', drover.dataDir, 'automation', 'run', 'flaky', '--project', folder]);
    await expect.poll(async () => (await history(drover, folder, 'flaky')).map((entry) => entry.state)).toEqual(Array(run).fill('failed'));
  }
  expect(await automation(drover, folder, 'list')).toMatch(/flaky.*paused: it failed 3 times in a row/);

  // Three failed tasks and the automation itself.
  await needsYouButton(page, 4).click();
  const queue = page.getByRole('dialog', { name: 'Needs you' });
  await expect(queue.getByRole('listitem', { name: /flaky: Automation paused/ })).toContainText('paused itself: it failed 3 times in a row');
  await queue.getByRole('listitem', { name: /flaky: Automation paused/ }).getByRole('button').first().click();
  await expect(page.getByText('flaky paused itself: open Automations to see its runs and resume it.')).toBeVisible();

  await automation(drover, folder, 'resume', 'flaky');
  await expect(needsYouButton(page, 3)).toBeVisible();
});

test('bad rules get a plain answer', async ({ drover }) => {
  const folder = drover.makeFolder('rules');
  await drover.startHost(['--project', folder]);
  const refused = async (...args: string[]) => {
    const result = await runCli(['--data-dir', drover.dataDir, 'automation', 'add', 'x', '--project', folder, ...args]);
    expect(result.code).toBe(2);
    return result.stderr;
  };
  expect(await refused('--cron', '0 9 * * mon-fry', '--task', 'true')).toContain('The day-of-week field "mon-fry" does not parse: "fry" is not a number nor a name');
  expect(await refused('--on', 'task-failed=build', '--task', 'echo {issue.title}')).toContain('The command names {issue.title}, which a task-ended trigger does not have');
  expect(await refused('--on', 'task-failed=build;reboot', '--task', 'true')).toContain('no spaces or shell characters');
  expect(await refused('--cron', '@daily', '--message', 'nobody', '--text', 'hi')).toContain('There is no agent nobody in project');
  expect(await refused('--cron', '@daily', '--agent', 'no-such-cli', '--prompt', 'hi')).toContain('There is no profile no-such-cli (profiles: ');
  expect(await refused('--cron', '@daily', '--agent', 'claude', '--prompt', 'hi', '--base', 'main;reboot')).toContain('no spaces or shell characters');
  expect(await refused('--on', 'issue-labelled=agent', '--task', 'echo {issue.title}')).toContain('has no origin remote: add one');
});

test('drover automation edit changes only the flags it is given, keeping the rule’s runs, and refuses what add refuses', async ({ drover }) => {
  const folder = drover.makeFolder('edits');
  await drover.startHost(['--project', folder]);
  await automation(drover, folder, 'add', 'nightly', '--cron', '0 3 * * *', '--time-zone', 'UTC', '--task', 'true');
  await automation(drover, folder, 'run', 'nightly');
  const [before] = JSON.parse(await automation(drover, folder, 'list', '--json')) as Automation[];

  expect(await automation(drover, folder, 'edit', 'nightly', '--cron', '15 4 * * *', '--daily-cap', '2')).toMatch(/^Changed automation nightly: cron 15 4 \* \* \* -> task: true; next run /);
  const [after] = JSON.parse(await automation(drover, folder, 'list', '--json')) as Automation[];
  expect(after).toMatchObject({ id: before!.id, trigger: { kind: 'schedule', cron: '15 4 * * *', timeZone: 'UTC' }, action: before!.action, dailyCap: 2 });
  expect(after!.nextRunAt).not.toBe(before!.nextRunAt);
  expect(await history(drover, folder, 'nightly')).toHaveLength(1);

  const refused = await runCli(['--data-dir', drover.dataDir, 'automation', 'edit', 'nightly', '--project', folder, '--cron', '0 9 * * mon-fry']);
  expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('The day-of-week field "mon-fry" does not parse') });
  const nothing = await runCli(['--data-dir', drover.dataDir, 'automation', 'edit', 'nightly', '--project', folder]);
  expect(nothing).toMatchObject({ code: 2, stderr: expect.stringContaining('drover automation edit needs something to change') });
});
