import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { cliRuntime } from './cliRuntime';

describe('the runtime drover serve hands to its host', () => {
  let dir: string;
  let cliDir: string;
  const onNode = { ...process.versions, electron: undefined } as unknown as NodeJS.ProcessVersions;
  const onElectron = { ...process.versions, electron: '45.5.0' } as NodeJS.ProcessVersions;

  beforeEach(() => {
    dir = makeTempDir('drover-cli-runtime-');
    cliDir = path.join(dir, 'resources', 'app.asar', 'dist', 'electron');
    fs.mkdirSync(cliDir, { recursive: true });
  });
  afterEach(() => removeDir(dir));

  it('on Node: runs the CLI again with the same Node, and lets better-sqlite3 load its own build', () => {
    expect(cliRuntime({ execPath: '/usr/bin/node', cliDir, versions: onNode, env: { HOME: '/home/ada' } })).toEqual({
      cliCommand: ['/usr/bin/node', path.join(cliDir, 'cli.js')],
      env: { HOME: '/home/ada' },
    });
  });

  it("on the packaged app's Electron: as Node, with the sqlite build in resources/native", () => {
    const binding = path.join(dir, 'resources', 'native', 'better_sqlite3.node');
    // Agents and tasks do not inherit the launcher's switch: an Electron app started there stays one.
    expect(cliRuntime({ execPath: '/opt/Drover/drover-desktop', cliDir, versions: onElectron, env: { HOME: '/home/ada', ELECTRON_RUN_AS_NODE: '1' } })).toEqual({
      cliCommand: ['/opt/Drover/drover-desktop', path.join(cliDir, 'cli.js')],
      cliEnv: { ELECTRON_RUN_AS_NODE: '1' },
      env: { HOME: '/home/ada' },
    });
    fs.mkdirSync(path.dirname(binding));
    fs.writeFileSync(binding, '');
    expect(cliRuntime({ execPath: '/opt/Drover/drover-desktop', cliDir, versions: onElectron, env: {} }).sqliteNativeBinding).toBe(binding);
    expect(cliRuntime({ execPath: '/opt/Drover/drover-desktop', cliDir, versions: onElectron, env: { DROVER_SQLITE_BINDING: '/src/.native/b.node' } }).sqliteNativeBinding).toBe('/src/.native/b.node');
  });
});
