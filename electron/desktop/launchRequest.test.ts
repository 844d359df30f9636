import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { connectToDrover } from '../cli/socketClient';
import { startHost, type DroverHost } from '../host/host';
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
  let dir: string;
  let host: DroverHost;

  beforeEach(async () => {
    dir = makeTempDir('drover-launch-');
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test' });
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  it('a --project launch opens that folder, adding it once', async () => {
    const folder = path.join(dir, 'shop-api');
    fs.mkdirSync(folder);
    const client = await connectToDrover(host.socketPath);
    try {
      const added = await projectForRequest(client.rpc, { projectPath: folder });
      expect(added).toMatchObject({ name: 'shop-api', path: folder });
      expect(await projectForRequest(client.rpc, { projectPath: folder })).toEqual(added);
      expect((await host.core.api.listProjects({})).projects).toHaveLength(1);
      expect(await projectForRequest(client.rpc, {})).toBeNull();
      await expect(projectForRequest(client.rpc, { projectPath: path.join(dir, 'missing') })).rejects.toThrow(/No such folder/);
    } finally {
      client.close();
    }
  });
});
