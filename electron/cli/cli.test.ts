import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../shared/entities/projects';
import type { Task } from '../../shared/entities/tasks';
import { spawn } from 'node:child_process';
import { CLI_PATH } from '../../test-support/buildOnce';
import { agentTerminalEnv } from '../../test-support/agentTerminalEnv';
import { runCli } from '../../test-support/droverProcess';
import { makeRepo } from '../../test-support/gitRepo';
import { seedFinishedTasks } from '../../test-support/seedTasks';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { startHost, type DroverHost } from '../host/host';

describe('drover CLI over the local socket', () => {
  let dir: string;
  let dataDir: string;
  let repo: string;
  let host: DroverHost;
  let project: Project;

  const cli = (args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
    runCli(['--data-dir', dataDir, ...args], { cwd: options.cwd ?? repo, env: { ...process.env, DROVER_SOCKET: '', DROVER_PROJECT_ID: '', DROVER_AGENT_ID: '', ...options.env } });
  const finished = (taskId: string) =>
    waitFor(async () => {
      const task = (await host.core.api.getTask({ taskId }));
      return ['succeeded', 'failed', 'cancelled', 'interrupted'].includes(task.state) && task;
    }, `task ${taskId} to end`);

  beforeEach(async () => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    repo = path.join(dir, 'repo');
    fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
    host = await startHost({ dataDir, version: 'test', settingsDefaults: { cancelGraceMs: 500 } });
    project = (await host.core.api.addProject({ path: repo }));
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  it('status prints the data dir, version and projects, and in each its agents and the tasks not finished', async () => {
    const agent = await host.core.api.createAgent({ projectId: project.id, name: 'Backend', role: '', profileId: 'shell' });
    const running = await host.core.api.createTask({ projectId: project.id, command: 'sleep 30', label: 'long build', ownerAgentId: agent.id });
    await finished((await host.core.api.createTask({ projectId: project.id, command: 'true', label: 'quick one' })).id);
    const result = await cli(['status']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`data dir: ${dataDir}`);
    expect(result.stdout).toContain('Drover test');
    expect(result.stdout).toContain(`projects: 1\n  ${project.id}  repo  ${repo}\n    agent Backend (not started)\n    task ${running.id} (running) long build\n`);
    expect(result.stdout).not.toContain('quick one');
    const json = JSON.parse((await cli(['status', '--json'])).stdout) as { projects: { id: string; agents: { name: string; state: string }[]; tasks: Task[] }[] };
    expect(json.projects[0]).toMatchObject({ id: project.id, agents: [{ id: agent.id, name: 'Backend', state: 'not started' }], tasks: [{ id: running.id, state: 'running' }] });
  });

  it('task list names each task’s agent', async () => {
    const agent = await host.core.api.createAgent({ projectId: project.id, name: 'Backend', role: '', profileId: 'shell' });
    const owned = await host.core.api.createTask({ projectId: project.id, command: 'true', label: 'owned', ownerAgentId: agent.id });
    const own = await host.core.api.createTask({ projectId: project.id, command: 'true', label: 'mine' });
    await finished(owned.id);
    await finished(own.id);
    const list = (await cli(['task', 'list'])).stdout.split('\n');
    expect(list[0]).toMatch(/^ID\s+STATE\s+TRY\s+TIME\s+AGENT\s+COMMAND$/);
    expect(list.find((line) => line.startsWith(owned.id))).toMatch(/\sBackend\s+owned: true$/);
    expect(list.find((line) => line.startsWith(own.id))).toMatch(/\s-\s+mine: true$/);
  });

  it('runs a task from the folder it stands in and prints its id, then shows, lists and prints its logs', async () => {
    const run = await cli(['task', 'run', '--label', 'build', '--', 'echo built $PWD'], { cwd: path.join(repo, 'src') });
    expect(run.code, run.stderr).toBe(0);
    const taskId = run.stdout.trim();
    expect(taskId).toMatch(/^t-[a-z0-9]+$/);
    const task = await finished(taskId);
    expect(task).toMatchObject({ state: 'succeeded', label: 'build', cwd: path.join(repo, 'src'), ownerAgentId: null });

    const show = await cli(['task', 'show', taskId]);
    expect(show.stdout).toMatch(/state:\s+succeeded/);
    const json = JSON.parse((await cli(['task', 'show', taskId, '--json'])).stdout) as Task;
    expect(json.id).toBe(taskId);
    expect((await cli(['task', 'list'])).stdout).toMatch(new RegExp(`${taskId}\\s+succeeded`));
    const logs = await cli(['task', 'logs', taskId]);
    expect(logs.stdout).toContain(`built ${path.join(repo, 'src')}`);
  });

  it('keeps the words of a command given as several words, and runs one word as a shell line', async () => {
    const run = async (...words: string[]) => {
      const result = await cli(['task', 'run', '--', ...words]);
      expect(result.code, result.stderr).toBe(0);
      const task = await finished(result.stdout.trim());
      return { task, output: (await cli(['task', 'logs', task.id])).stdout };
    };
    const script = await run('sh', '-c', 'echo hi; exit 3');
    expect(script.task).toMatchObject({ state: 'failed', exitCode: 3, command: "sh -c 'echo hi; exit 3'" });
    expect(script.output).toContain('hi');
    const pattern = await run(process.execPath, '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '--', '--grep', 'a b');
    expect(pattern.output).toContain('["--grep","a b"]');
    const line = await run('echo one && echo two');
    expect(line.output).toMatch(/one\r?\ntwo/);
  });

  it('follows a running task until it ends', async () => {
    const taskId = (await cli(['task', 'run', '--', 'for i in 1 2 3; do echo tick-$i; sleep 0.2; done'])).stdout.trim();
    const follow = await cli(['task', 'logs', '--follow', taskId]);
    expect(follow.code).toBe(0);
    expect(follow.stdout).toMatch(/tick-1\r?\ntick-2\r?\ntick-3/);
    expect(await host.core.api.getTask({ taskId })).toMatchObject({ state: 'succeeded' });
  });

  it('takes the project and agent from an agent terminal env', async () => {
    const agent = (await host.core.api.createAgent({ projectId: project.id, name: 'Backend', role: '', profileId: 'shell' }));
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    const result = await runCli(['task', 'run', '--json', '--', 'true'], { cwd: dir, env: await agentTerminalEnv(host, agent) });
    expect(result.code, result.stderr).toBe(0);
    const task = JSON.parse(result.stdout) as Task;
    expect(task).toMatchObject({ projectId: project.id, ownerAgentId: agent.id, cwd: repo });
    const byName = JSON.parse((await cli(['task', 'run', '--json', '--agent', 'Backend', '--', 'true'])).stdout) as Task;
    expect(byName.ownerAgentId).toBe(agent.id);
    const unknown = await cli(['task', 'run', '--agent', 'Frontend', '--', 'true']);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('No agent Frontend in this project') });
  });

  it('cancels and retries by id', async () => {
    const taskId = (await cli(['task', 'run', '--', 'sleep', '30'])).stdout.trim();
    await waitFor(async () => (await host.core.api.getTask({ taskId })).state === 'running', 'task to run');
    const cancel = await cli(['task', 'cancel', taskId]);
    expect(cancel.code).toBe(0);
    expect((await finished(taskId)).state).toBe('cancelled');
    const retry = await cli(['task', 'retry', '--json', taskId]);
    expect(JSON.parse(retry.stdout)).toMatchObject({ retryOf: taskId, attempt: 2 });
  });

  it('fails with exit code 2 and a clear message for unknown ids, unregistered projects and outside folders', async () => {
    const unknown = await cli(['task', 'show', 't-doesnotexist']);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('No task with id t-doesnotexist') });
    const notRegistered = await cli(['task', 'run', '--', 'true'], { cwd: dir });
    expect(notRegistered).toMatchObject({ code: 2, stderr: expect.stringContaining('No registered project holds') });
    const unknownProject = await cli(['task', 'list', '--project', 'p-nosuchproject']);
    expect(unknownProject).toMatchObject({ code: 2, stderr: expect.stringContaining('No project with id p-nosuchproject') });
    const outside = await cli(['task', 'run', '--cwd', dir, '--', 'true']);
    expect(outside).toMatchObject({ code: 2, stderr: expect.stringContaining('outside the project') });
    const retryActive = await cli(['task', 'retry', (await cli(['task', 'run', '--', 'sleep 30'])).stdout.trim()]);
    expect(retryActive).toMatchObject({ code: 2, stderr: expect.stringContaining('only a finished task can be retried') });
    const usage = await cli(['task', 'run']);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('needs a command') });
  });

  it('prints names, labels and commands with control characters quoted as git quotes file names; --json keeps them as they are', async () => {
    const hostileFolder = path.join(dir, 'repo\u001b]52;c;aGk=\u0007');
    fs.mkdirSync(hostileFolder);
    const hostile = await host.core.api.addProject({ path: hostileFolder });
    const label = 'build\u001b[2J';
    const command = 'echo hi\nt-forged00000000000000 succeeded #1 fake';
    const task = await host.core.api.createTask({ projectId: hostile.id, command, label });
    await finished(task.id);
    // eslint-disable-next-line no-control-regex -- the very characters that must not reach the terminal
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

    const status = await cli(['status']);
    expect(status.stdout).not.toMatch(controls);
    expect(status.stdout).toContain('"repo\\033]52;c;aGk=\\a"');

    const list = await cli(['task', 'list', '--project', hostile.id]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).not.toMatch(controls);
    // One header and one row: the newline in the command did not forge a second row.
    expect(list.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(list.stdout).toContain('"build\\033[2J": "echo hi\\nt-forged00000000000000 succeeded #1 fake"');

    const show = await cli(['task', 'show', task.id]);
    expect(show.stdout).not.toMatch(controls);
    expect(show.stdout).toMatch(/^command: {3}"echo hi\\nt-forged/m);
    expect(show.stdout).toMatch(/^label: {5}"build\\033\[2J"$/m);
    expect(show.stdout).toContain(`cwd:       "${hostileFolder.replace('\u001b', '\\033').replace('\u0007', '\\a')}"`);
    expect(JSON.parse((await cli(['task', 'show', task.id, '--json'])).stdout)).toMatchObject({ label, command, cwd: hostileFolder });

    const refused = await cli(['task', 'run', '--agent', 'x\u001b]0;owned\u0007', '--', 'true']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).not.toMatch(controls);
    expect(refused.stderr).toContain('No agent x\\033]0;owned\\a in this project');
  });

  it('drover COMMAND --help (and -h, and drover help COMMAND) prints that command’s usage; after -- it is a word of the task', async () => {
    for (const args of [['task', 'run', '--help'], ['task', 'run', '-h'], ['help', 'task', 'run'], ['task', 'run', '--label', 'x', '--help']]) {
      const help = await cli(args);
      expect(help, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toBe('Usage:\n  drover task run [--project ID|PATH] [--agent NAME] [--label L] [--cwd DIR] [--json] -- CMD...\n');
    }
    const task = await cli(['task', '--help']);
    expect(task.stdout.trimEnd().split('\n').slice(1)).toEqual(expect.arrayContaining([expect.stringMatching(/^ {2}drover task list /), expect.stringMatching(/^ {2}drover task retry /)]));
    expect(task.stdout).not.toContain('drover worktree');
    expect((await cli(['worktree', 'merge', 'alpha', '--squash', '--help'])).stdout).toMatch(/^Usage:\n {2}drover worktree merge AGENT [^\n]*\n$/);
    expect((await cli(['host', 'stop', '--help'])).stdout).toMatch(/^Usage:\n {2}drover host start \| status/);
    expect(await cli(['bogus', '--help'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Unknown command: bogus') });
    const passedOn = await cli(['task', 'run', '--json', '--', 'echo', '--help']);
    expect(passedOn.code, passedOn.stderr).toBe(0);
    expect(JSON.parse(passedOn.stdout)).toMatchObject({ command: 'echo --help' });
  });

  it('points to drover help after a mistake in the call, not after a refusal of a well-formed one', async () => {
    const mistake = await cli(['task', 'list', '--bogus']);
    expect(mistake).toMatchObject({ code: 2, stderr: expect.stringContaining('Run `drover help` for usage.') });
    for (const refused of [
      await cli(['worktree', 'diff', 'nobody']),
      await cli(['task', 'list', '--project', 'p-nosuchproject']),
      await cli(['task', 'run', '--', 'true'], { env: { DROVER_AGENT_ID: 'a-someone' } }),
      await cli(['task', 'show', 't-doesnotexist']),
    ]) {
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/^drover: \S/);
      expect(refused.stderr).not.toContain('drover help');
    }
  });

  it('says plainly when Drover is not running', async () => {
    const result = await runCli(['--data-dir', path.join(dir, 'elsewhere'), 'status'], { cwd: repo });
    expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining('Drover is not running') });
  });
  it('ends quietly when the reader closes the pipe early (drover task list | head -5), also with --json', async () => {
    await host.close();
    seedFinishedTasks(dataDir, project.id, repo, 3000);
    host = await startHost({ dataDir, version: 'test', settingsDefaults: { cancelGraceMs: 500 } });
    for (const extra of [[], ['--json']]) {
      const child = spawn(process.execPath, [CLI_PATH, '--data-dir', dataDir, 'task', 'list', ...extra], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
  });

  it('says what is wrong in words of its own: a malformed task id, an unknown option, a followed task that failed', async () => {
    for (const command of ['show', 'logs', 'cancel', 'retry']) {
      const malformed = await cli(['task', command, 't-nope']);
      expect(malformed.code).toBe(2);
      expect(malformed.stderr).toContain('t-nope is not a task id');
      expect(malformed.stderr).not.toMatch(/Invalid|params|taskId/);
    }
    const bogus = await cli(['task', 'list', '--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toContain('drover task list has no option --bogus');
    expect(bogus.stderr).not.toContain('"');
    const statusBogus = await cli(['status', '--bogus']);
    expect(statusBogus).toMatchObject({ code: 2, stderr: expect.stringContaining('drover status has no option --bogus') });
    for (const [args, command] of [
      [['pr', 'status', 'alpha', '--bogus'], 'drover pr status'],
      [['issue', 'list', '--bogus'], 'drover issue list'],
      [['turns', 'alpha', '--bogus'], 'drover turns'],
    ] as const) {
      expect(await cli([...args])).toMatchObject({ code: 2, stderr: expect.stringContaining(`${command} has no option --bogus`) });
    }

    const failing = (await cli(['task', 'run', '--', 'echo about to fail; exit 4'])).stdout.trim();
    const follow = await cli(['task', 'logs', '-f', failing]);
    expect(follow.stdout).toContain('about to fail');
    expect(follow.stderr).toContain(`drover: task ${failing} failed: exit code 4`);
    expect(follow.code).toBe(3);
    const passing = (await cli(['task', 'run', '--', 'echo fine'])).stdout.trim();
    const followPassing = await cli(['task', 'logs', '--follow', passing]);
    expect(followPassing).toMatchObject({ code: 0, stderr: `drover: task ${passing} succeeded\n` });
  });

  it('runs an owner’s task in the owner’s worktree, wherever drover is run from, as the page does', async () => {
    const shop = makeRepo(path.join(dir, 'shop'), { 'README.md': 'hello\n' });
    const shopProject = await host.core.api.addProject({ path: shop });
    const agent = await host.core.api.createAgent({ projectId: shopProject.id, name: 'alpha', role: '', profileId: 'shell', workspace: { kind: 'new-worktree' } });
    const worktree = (await host.core.api.getWorkState({ projectId: shopProject.id })).worktrees.find((candidate) => candidate.agentId === agent.id);
    const run = await cli(['task', 'run', '--json', '--agent', 'alpha', '--', 'true'], { cwd: shop });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ownerAgentId: agent.id, cwd: worktree?.path });
    const given = await cli(['task', 'run', '--json', '--agent', 'alpha', '--cwd', '.', '--', 'true'], { cwd: shop });
    expect(JSON.parse(given.stdout)).toMatchObject({ cwd: shop });
  });

  it('drover inbox prints the agent’s new messages in full and marks them read (a shell’s read_inbox)', async () => {
    const agent = await host.core.api.createAgent({ projectId: project.id, name: 'Shell', role: '', profileId: 'shell' });
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await host.core.api.sendMessage({ projectId: project.id, to: 'Shell', kind: 'note', body: 'first line\nsecond line of the note' });
    const env = await agentTerminalEnv(host, agent);
    const read = await runCli(['inbox'], { cwd: dir, env });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toMatch(/^Note from a person, .+\nfirst line\nsecond line of the note\n$/);
    expect((await host.core.api.listInbox({ agentId: agent.id, unreadOnly: true })).messages).toEqual([]);
    expect((await runCli(['inbox'], { cwd: dir, env })).stdout).toBe('No new messages for Shell (drover inbox --all shows the read ones).\n');
    const all = await cli(['inbox', '--agent', 'shell', '--all']);
    expect(all.stdout).toContain('second line of the note');
    expect(await cli(['inbox'])).toMatchObject({ code: 2, stderr: expect.stringContaining('drover inbox needs an agent') });
  });

  it('drover inbox keeps the lines of a message and escapes every other control character: a body cannot write the clipboard', async () => {
    const agent = await host.core.api.createAgent({ projectId: project.id, name: 'Reader', role: '', profileId: 'shell' });
    const sender = await host.core.api.createAgent({ projectId: project.id, name: 'Writer\u001b[2J', role: '', profileId: 'shell' });
    await host.core.api.holdAgentWakes({ agentId: agent.id, hold: true });
    await host.core.api.sendMessage({ projectId: project.id, to: 'Reader', kind: 'note', body: 'see below\n\u001b]52;c;aGk=\u0007done\r', fromAgentId: sender.id });
    const read = await cli(['inbox', '--agent', 'Reader']);
    expect(read.code, read.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex -- the very characters that must not reach the terminal
    expect(read.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(read.stdout).toMatch(/^Note from "Writer\\033\[2J", .+\nsee below\n\\033]52;c;aGk=\\adone\\r\n$/);
  });
});
