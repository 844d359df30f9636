import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { startHost, type DroverHost } from './host';
import { listRunningWork } from './runningWork';

describe('the running work a stop of the host would end', () => {
  let dir: string;
  let host: DroverHost;

  beforeEach(async () => {
    dir = makeTempDir('drover-running-');
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', settingsDefaults: { cancelGraceMs: 500 }, agentStopGraceMs: 500 });
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  it('names active tasks and live agent sessions, across projects', async () => {
    expect(await listRunningWork(host.core.api)).toEqual({ agents: [], tasks: [] });
    const folders = ['one', 'two'].map((name) => {
      const folder = path.join(dir, name);
      fs.mkdirSync(folder);
      return folder;
    });
    const [first, second] = await Promise.all(folders.map((folder) => host.core.api.addProject({ path: folder })));
    if (!first || !second) throw new Error('projects were not added');
    const task = await host.core.api.createTask({ projectId: first.id, command: 'sleep 60', label: 'long one' });
    await host.core.api.createTask({ projectId: second.id, command: 'true' });
    const agent = await host.core.api.createAgent({ projectId: second.id, name: 'Shell', role: '', profileId: 'shell' });
    await host.core.api.startAgent({ agentId: agent.id, resume: false });

    await waitFor(async () => (await listRunningWork(host.core.api)).tasks.length === 1, 'the quick task to end and the long one to run');
    const work = await listRunningWork(host.core.api);
    expect(work.tasks).toEqual([{ projectId: first.id, projectName: 'one', taskId: task.id, name: 'long one', state: 'running' }]);
    expect(work.agents).toEqual([expect.objectContaining({ projectId: second.id, projectName: 'two', agentId: agent.id, name: 'Shell' })]);

    await host.core.api.cancelTask({ taskId: task.id });
    await host.core.api.stopAgent({ agentId: agent.id });
    await waitFor(async () => {
      const left = await listRunningWork(host.core.api);
      return left.tasks.length === 0 && left.agents.length === 0;
    }, 'the task and the agent to stop');
  });
});
