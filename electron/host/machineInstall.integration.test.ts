import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteHostDir } from '../../shared/machines';
import { CAN_RUN_SSHD, startSshRemote, type SshRemote } from '../../test-support/sshServer';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import type { RemoteHostBundle } from '../core/machines/remoteHostBundle';
import { startHost, type DroverHost } from './host';

const VERSION = '7.7.7';

describe.skipIf(!CAN_RUN_SSHD)("installing Drover's host on another machine over the real OpenSSH: whole and working, or not at all", () => {
  let remote: SshRemote;
  let dir: string;
  let host: DroverHost;
  const bundleDir = () => path.join(dir, 'bundle');
  const installedDir = () => path.join(remote.home, remoteHostDir(VERSION));
  const leftovers = () => fs.readdirSync(path.dirname(installedDir())).filter((entry) => entry.startsWith('.host-'));

  /** A host bundle whose cli.js answers `--version` with `answer`, carrying `ballastBytes` that do not compress. */
  function writeBundle(answer: string, ballastBytes = 0): void {
    removeDir(bundleDir());
    fs.mkdirSync(bundleDir());
    const bundle: RemoteHostBundle = { version: VERSION, buildId: crypto.randomBytes(8).toString('hex'), nodeAbi: process.versions.modules, nodeVersion: process.versions.node, platform: process.platform, arch: process.arch };
    fs.writeFileSync(path.join(bundleDir(), 'bundle.json'), JSON.stringify(bundle));
    fs.writeFileSync(path.join(bundleDir(), 'build-id'), bundle.buildId);
    fs.writeFileSync(path.join(bundleDir(), 'cli.js'), `console.log(${JSON.stringify(answer)});\n`);
    if (ballastBytes > 0) fs.writeFileSync(path.join(bundleDir(), 'ballast'), crypto.randomBytes(ballastBytes));
  }

  beforeAll(async () => {
    remote = await startSshRemote();
    dir = makeTempDir();
    process.env.DROVER_SSH_COMMAND = remote.sshCommand;
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', remoteHostBundleDir: bundleDir() });
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await remote?.stop();
    removeDir(dir);
  }, 60_000);

  it('leaves a host that does not run there uninstalled, so the next add installs it', async () => {
    writeBundle('Error: this Node cannot load the terminal module');
    await expect(host.core.api.addMachine({ name: 'box', destination: remote.alias })).rejects.toThrow(
      "Drover's host does not run on remote, so it was not installed: Error: this Node cannot load the terminal module",
    );
    expect(fs.existsSync(installedDir())).toBe(false);
    expect(leftovers()).toEqual([]);
    expect((await host.core.api.listMachines({})).machines).toEqual([]);

    writeBundle(VERSION);
    const added = await host.core.api.addMachine({ name: 'box', destination: remote.alias });
    expect(added.installed).toBe(true);
    expect(fs.readFileSync(path.join(installedDir(), 'build-id'), 'utf8')).toBe(fs.readFileSync(path.join(bundleDir(), 'build-id'), 'utf8'));
    expect(leftovers()).toEqual([]);
  }, 60_000);

  it('fails an add at once, with the reason, when the remote stops reading in the middle of the copy', async () => {
    writeBundle(VERSION, 8 * 1024 * 1024);
    // The folder the host goes into cannot be made: the remote's script ends before it reads the copy.
    const share = path.join(remote.home, '.local', 'share');
    removeDir(path.join(share, 'drover'));
    fs.writeFileSync(path.join(share, 'drover'), '');
    remote.chownHome();
    await expect(host.core.api.addMachine({ name: 'full', destination: remote.alias })).rejects.toThrow(
      /^Could not install Drover's host on remote: mkdir: .*File exists\. Nothing was left half-installed\.$/,
    );
    expect((await host.core.api.listMachines({})).machines.map((machine) => machine.name)).toEqual(['box']);
  }, 30_000);
});
