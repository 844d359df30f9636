import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project, Task } from '../../shared/entities';
import { agentTerminalEnv } from '../../test-support/agentTerminalEnv';
import { runCli } from '../../test-support/droverProcess';
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

  it('status prints the data dir, version and projects', async () => {
    const result = await cli(['status']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`data dir: ${dataDir}`);
    expect(result.stdout).toContain('Drover test');
    expect(result.stdout).toContain(project.id);
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

  it('says plainly when Drover is not running', async () => {
    const result = await runCli(['--data-dir', path.join(dir, 'elsewhere'), 'status'], { cwd: repo });
    expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining('Drover is not running') });
  });
});
