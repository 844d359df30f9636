import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostPerTest } from '../../test-support/hostPerTest';
import { connectToDrover } from '../cli/socketClient';
import { parseLaunchArgs, projectForRequest, requestFromSecondInstance } from './launchRequest';

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

describe('launch requests, against a running host', () => {
  const running = hostPerTest('drover-launch-');

  it('a --project launch opens that folder, adding it once', async () => {
    const folder = path.join(running.dir, 'shop-api');
    fs.mkdirSync(folder);
    const client = await connectToDrover(running.host.socketPath);
    try {
      const added = await projectForRequest(client.rpc, { projectPath: folder });
      expect(added).toMatchObject({ name: 'shop-api', path: folder });
      expect(await projectForRequest(client.rpc, { projectPath: folder })).toEqual(added);
      expect((await running.host.core.api.listProjects({})).projects).toHaveLength(1);
      expect(await projectForRequest(client.rpc, {})).toBeNull();
      await expect(projectForRequest(client.rpc, { projectPath: path.join(running.dir, 'missing') })).rejects.toThrow(/No such folder/);
    } finally {
      client.close();
    }
  });
});
