import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { startHost, type DroverHost } from '../host/host';
import { parseLaunchArgs, projectForRequest, requestFromSecondInstance } from './launchRequest';
import { countRunningWork } from './runningWork';

describe('launch requests', () => {
  it('read --project PATH and --project=PATH wherever they stand, relative to where Drover was launched', () => {
    expect(parseLaunchArgs(['/opt/Drover/drover-desktop', '--project', 'shop-api'], '/home/ada/code')).toEqual({ projectPath: '/home/ada/code/shop-api' });
    expect(parseLaunchArgs(['/usr/lib/electron', '.', '--no-sandbox', '--project=/srv/app'], '/tmp')).toEqual({ projectPath: '/srv/app' });
    expect(parseLaunchArgs(['/opt/Drover/drover-desktop', '%U'], '/')).toEqual({});
    expect(parseLaunchArgs(['/opt/Drover/drover-desktop', '--project'], '/')).toEqual({});
  });

  it("take a second launch's request as it sent it, else from its argv", () => {
    expect(requestFromSecondInstance({ projectPath: '/srv/app' }, ['drover-desktop', '--other', 'x'], '/')).toEqual({ projectPath: '/srv/app' });
    expect(requestFromSecondInstance(null, ['drover-desktop', '--project', 'api'], '/srv')).toEqual({ projectPath: '/srv/api' });
    expect(requestFromSecondInstance({ projectPath: 42 }, ['drover-desktop'], '/srv')).toEqual({});
  });
});

describe('launch requests and running work, against a running host', () => {
  let dir: string;
  let host: DroverHost;

  beforeEach(async () => {
    dir = makeTempDir('drover-launch-');
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', settingsDefaults: { cancelGraceMs: 500 }, agentStopGraceMs: 500 });
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  it('a --project launch opens that folder, adding it once', async () => {
    const folder = path.join(dir, 'shop-api');
    fs.mkdirSync(folder);
    const added = await projectForRequest(host.core.api, { projectPath: folder });
    expect(added).toMatchObject({ name: 'shop-api', path: folder });
    expect(await projectForRequest(host.core.api, { projectPath: folder })).toEqual(added);
    expect((await host.core.api.listProjects({})).projects).toHaveLength(1);
    expect(await projectForRequest(host.core.api, {})).toBeNull();
    await expect(projectForRequest(host.core.api, { projectPath: path.join(dir, 'missing') })).rejects.toThrow(/No such folder/);
  });

  it('a restart would stop what runs: active tasks and live agent sessions, across projects', async () => {
    expect(await countRunningWork(host.core.api)).toEqual({ tasks: 0, agents: 0 });
    const folders = ['one', 'two'].map((name) => {
      const folder = path.join(dir, name);
      fs.mkdirSync(folder);
      return folder;
    });
    const [first, second] = await Promise.all(folders.map((folder) => host.core.api.addProject({ path: folder })));
    if (!first || !second) throw new Error('projects were not added');
    const task = await host.core.api.createTask({ projectId: first.id, command: 'sleep 60' });
    await host.core.api.createTask({ projectId: second.id, command: 'true' });
    const agent = await host.core.api.createAgent({ projectId: second.id, name: 'Shell', role: '', profileId: 'shell' });
    await host.core.api.startAgent({ agentId: agent.id, resume: false });

    await waitFor(async () => (await countRunningWork(host.core.api)).tasks === 1, 'the quick task to end and the long one to run');
    expect(await countRunningWork(host.core.api)).toEqual({ tasks: 1, agents: 1 });

    await host.core.api.cancelTask({ taskId: task.id });
    await host.core.api.stopAgent({ agentId: agent.id });
    await waitFor(async () => {
      const work = await countRunningWork(host.core.api);
      return work.tasks === 0 && work.agents === 0;
    }, 'the task and the agent to stop');
  });
});
