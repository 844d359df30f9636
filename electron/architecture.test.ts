import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/buildOnce';
import { makeTempDir, removeDir } from '../test-support/tempDir';

/** Runs the repo's dependency-cruiser rules over a small tree that breaks each of them once. */
describe('architecture rules (npm run lint)', () => {
  let tree: string;
  let output: string;
  let status: number | null;

  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    fs.writeFileSync(path.join(tree, file), text);
  };

  beforeAll(() => {
    tree = makeTempDir('drover-arch-');
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }));
    write('shared/contract.ts', 'export const ok = 1;\n');
    write('electron/host/host.ts', "import { ok } from '../../shared/contract';\nexport const host = ok;\n");
    write('electron/core/usesElectron.ts', "import { app } from 'electron';\nexport const a = app;\n");
    write('electron/core/usesHost.ts', "import { host } from '../host/host';\nexport const h = host;\n");
    write('electron/core/usesReact.ts', "import React from 'react';\nexport const r = React;\n");
    write('renderer/usesCore.ts', "import { h } from '../electron/core/usesHost';\nexport const x = h;\n");
    write('renderer/usesNode.ts', "import fs from 'node:fs';\nexport const f = fs;\n");
    write('shared/usesRenderer.ts', "import { x } from '../renderer/usesCore';\nexport const y = x;\n");
    write('electron/core/storage/sqlite.ts', 'export const openDatabase = 1;\n');
    write('electron/core/tasks/taskService.ts', 'export const tasks = 1;\n');
    write('electron/core/storage/usesDomain.ts', "import { tasks } from '../tasks/taskService';\nexport const t = tasks;\n");
    write('electron/core/tasks/usesSql.ts', "import { openDatabase } from '../storage/sqlite';\nexport const o = openDatabase;\n");
    write('electron/desktop/native/appMenu.ts', "import { Menu } from 'electron';\nexport const m = Menu;\n");
    write('electron/desktop/usesElectron.ts', "import { dialog } from 'electron';\nexport const d = dialog;\n");
    write('electron/desktop/usesUpdater.ts', "import { AppImageUpdater } from 'electron-updater';\nexport const u = AppImageUpdater;\n");
    write('electron/host/usesNative.ts', "import { m } from '../desktop/native/appMenu';\nexport const n = m;\n");
    write('electron/core/usesDesktop.ts', "import { d } from '../desktop/usesElectron';\nexport const e = d;\n");
    const depcruise = path.join(REPO_ROOT, 'node_modules', '.bin', 'depcruise');
    const result = spawnSync(depcruise, ['--config', path.join(REPO_ROOT, '.dependency-cruiser.cjs'), 'electron', 'renderer', 'shared'], {
      cwd: tree,
      encoding: 'utf8',
    });
    output = result.stdout + result.stderr;
    status = result.status;
  });
  afterAll(() => removeDir(tree));

  it('fails the lint run', () => {
    expect(status).not.toBe(0);
  });

  it.each([
    ['core-is-plain-node', 'electron/core/usesElectron.ts'],
    ['core-is-plain-node', 'electron/core/usesHost.ts'],
    ['core-is-plain-node', 'electron/core/usesReact.ts'],
    ['only-main-preload-and-desktop-native-import-electron', 'electron/core/usesElectron.ts'],
    ['only-main-preload-and-desktop-native-import-electron', 'electron/desktop/usesElectron.ts'],
    ['only-main-preload-and-desktop-native-import-electron', 'electron/desktop/usesUpdater.ts'],
    ['desktop-native-only-from-main', 'electron/host/usesNative.ts'],
    ['host-not-from-core-or-cli-internals', 'electron/host/usesNative.ts'],
    ['core-is-plain-node', 'electron/core/usesDesktop.ts'],
    ['renderer-only-renderer-and-shared', 'renderer/usesCore.ts'],
    ['renderer-no-node-builtins', 'renderer/usesNode.ts'],
    ['shared-is-the-contract-only', 'shared/usesRenderer.ts'],
    ['storage-knows-no-domain', 'electron/core/storage/usesDomain.ts'],
    ['sql-only-in-storage', 'electron/core/tasks/usesSql.ts'],
  ])('reports %s for %s', (rule, file) => {
    expect(output).toMatch(new RegExp(`${rule}: ${file.replace(/\./g, '\\.')}`));
  });

  it('lets the adapters of desktop/native/ import electron', () => {
    expect(output).toContain('electron/desktop/usesElectron.ts');
    expect(output).not.toMatch(/only-main-preload-and-desktop-native-import-electron: electron\/desktop\/native\//);
  });
});
