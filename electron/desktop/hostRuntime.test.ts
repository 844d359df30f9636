import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { COMMAND_LINE_TOOL_ENV } from '../cli/hostCommands';
import { cleanHostCopies, desktopHostCommand, ensureHostCopy } from './hostRuntime';

describe('where the desktop app runs its host from', () => {
  let dir: string;
  /** Stands in for the AppImage's FUSE mount: the binary and the app inside resources/. */
  let appDir: string;

  beforeEach(() => {
    dir = makeTempDir();
    appDir = path.join(dir, 'mount');
    fs.mkdirSync(path.join(appDir, 'resources', 'app.asar.unpacked'), { recursive: true });
    fs.writeFileSync(path.join(appDir, 'drover'), '#!/bin/sh\n', { mode: 0o755 });
    fs.writeFileSync(path.join(appDir, 'resources', 'cli.js'), '// the CLI\n');
    fs.symlinkSync('drover', path.join(appDir, 'drover-link'));
  });
  afterEach(() => removeDir(dir));

  it('an AppImage runs it from a copy outside its mount, one per version, whole or not at all', () => {
    const env = { APPDIR: appDir, XDG_CACHE_HOME: path.join(dir, 'cache'), HOME: dir };
    const command = desktopHostCommand({
      distribution: { kind: 'appimage', appImage: path.join(dir, 'Drover-1.2.0.AppImage') },
      cli: { execPath: path.join(appDir, 'drover'), cliPath: path.join(appDir, 'resources', 'cli.js') },
      dataDir: path.join(dir, 'data'),
      version: '1.2.0',
      env,
      commandLineTool: { kind: 'launcher', command: [path.join(dir, 'Drover-1.2.0.AppImage')] },
    });
    const copy = path.join(dir, 'cache', 'drover', 'host-1.2.0');
    expect(command.command).toBe(path.join(copy, 'drover'));
    expect(command.args).toEqual([path.join(copy, 'resources', 'cli.js'), 'host', 'run', '--data-dir', path.join(dir, 'data')]);
    expect(command.env.ELECTRON_RUN_AS_NODE).toBe('1');
    expect(JSON.parse(command.env[COMMAND_LINE_TOOL_ENV] as string)).toEqual({ kind: 'launcher', command: [path.join(dir, 'Drover-1.2.0.AppImage')] });
    expect(fs.statSync(path.join(copy, 'drover')).mode & 0o777).toBe(0o755);
    expect(fs.readlinkSync(path.join(copy, 'drover-link'))).toBe('drover');
    // The mount goes away; the copy stays, and is not made again.
    fs.rmSync(appDir, { recursive: true });
    expect(ensureHostCopy(appDir, '1.2.0', path.join(dir, 'cache', 'drover'))).toBe(copy);
    expect(fs.readdirSync(path.join(dir, 'cache', 'drover'))).toEqual(['host-1.2.0']);
  });

  it('a .deb or an unpacked app runs it where it is installed', () => {
    const cli = { execPath: '/opt/Drover/drover', cliPath: '/opt/Drover/resources/app.asar/dist/electron/cli.js' };
    const command = desktopHostCommand({ distribution: { kind: 'deb' }, cli, dataDir: '/d', version: '1.2.0', env: {}, commandLineTool: { kind: 'package', path: '/usr/bin/drover' } });
    expect(command).toMatchObject({ command: cli.execPath, args: [cli.cliPath, 'host', 'run', '--data-dir', '/d'] });
  });

  it('copies of other versions go once no process runs from them', async () => {
    const copies = path.join(dir, 'cache', 'drover');
    const old = ensureHostCopy(appDir, '1.1.0', copies);
    const running = ensureHostCopy(appDir, '1.1.5', copies);
    ensureHostCopy(appDir, '1.2.0', copies);
    // A host of 1.1.5 still runs from its copy (its binary is in there).
    fs.copyFileSync(process.execPath, path.join(running, 'node'));
    fs.chmodSync(path.join(running, 'node'), 0o755);
    const host = spawn(path.join(running, 'node'), ['-e', 'setInterval(() => {}, 1000)']);
    await new Promise((resolve) => host.once('spawn', resolve));
    try {
      expect(cleanHostCopies(copies, '1.2.0')).toEqual([old]);
      expect(fs.readdirSync(copies).sort()).toEqual(['host-1.1.5', 'host-1.2.0']);
    } finally {
      host.kill('SIGKILL');
      await new Promise((resolve) => host.once('exit', resolve));
    }
    expect(cleanHostCopies(copies, '1.2.0')).toEqual([running]);
    expect(fs.readdirSync(copies)).toEqual(['host-1.2.0']);
  });
});
