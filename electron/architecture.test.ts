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
    write('electron/core/git/usesDomain.ts', "import { tasks } from '../tasks/taskService';\nexport const g = tasks;\n");
    write('electron/core/tasks/usesSql.ts', "import { openDatabase } from '../storage/sqlite';\nexport const o = openDatabase;\n");
    write('electron/core/agents/agentService.ts', "import { tasks } from '../tasks/taskService';\nexport const agents = tasks;\n");
    write('electron/core/worktrees/usesAgents.ts', "import { agents } from '../agents/agentService';\nexport const w = agents;\n");
    write('electron/core/sessions/sessionService.ts', 'export const sessions = 1;\n');
    write('electron/core/inbox/usesSessions.ts', "import { sessions } from '../sessions/sessionService';\nexport const i = sessions;\n");
    write('electron/core/unplaced/usesTasks.ts', "import { tasks } from '../tasks/taskService';\nexport const u = tasks;\n");
    write('shared/typeCycleA.ts', "import type { B } from './typeCycleB';\nexport interface A { b?: B }\n");
    write('shared/typeCycleB.ts', "import type { A } from './typeCycleA';\nexport interface B { a?: A }\n");
    write('electron/desktop/native/appMenu.ts', "import { Menu } from 'electron';\nexport const m = Menu;\n");
    write('electron/desktop/usesElectron.ts', "import { dialog } from 'electron';\nexport const d = dialog;\n");
    write('electron/desktop/usesUpdater.ts', "import { AppImageUpdater } from 'electron-updater';\nexport const u = AppImageUpdater;\n");
    write('electron/host/usesNative.ts', "import { m } from '../desktop/native/appMenu';\nexport const n = m;\n");
    write('electron/core/usesDesktop.ts', "import { d } from '../desktop/usesElectron';\nexport const e = d;\n");
    write('electron/wire/framing.ts', "import { ok } from '../../shared/contract';\nimport { Buffer } from 'node:buffer';\nexport const frame = Buffer.from(String(ok));\n");
    write('electron/wire/usesHost.ts', "import { host } from '../host/host';\nexport const w = host;\n");
    write('electron/wire/usesPackage.ts', "import { z } from 'zod';\nexport const s = z.string();\n");
    write('electron/common/usesCore.ts', "import { tasks } from '../core/tasks/taskService';\nexport const c = tasks;\n");
    write('electron/common/usesPackage.ts', "import { z } from 'zod';\nexport const s = z.string();\n");
    write('electron/common/quoting.ts', "import { ok } from '../../shared/contract';\nimport path from 'node:path';\nexport const q = path.join(String(ok));\n");
    write('electron/cli/usesCommon.ts', "import { q } from '../common/quoting';\nexport const u = q;\n");
    write('electron/core/usesWire.ts', "import { frame } from '../wire/framing';\nexport const f = frame;\n");
    write('electron/cli/taskCommand.ts', "import { frame } from '../wire/framing';\nimport { host } from '../host/host';\nexport const c = [frame, host];\n");
    write('electron/cli/usesCore.ts', "import { tasks } from '../core/tasks/taskService';\nexport const c = tasks;\n");
    write('electron/cli/hostCommands.ts', "import { host } from '../host/host';\nimport { tasks } from '../core/tasks/taskService';\nexport const run = [host, tasks];\n");
    write('electron/cli/usesDesktop.ts', "import { m } from '../desktop/native/appMenu';\nexport const c = m;\n");
    write('electron/desktop/usesMain.ts', "import { started } from '../main';\nexport const d = started;\n");
    write('electron/main.ts', "import { tasks } from './core/tasks/taskService';\nexport const started = tasks;\n");
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
    ['host-imports-core-wire-and-shared', 'electron/host/usesNative.ts'],
    ['wire-imports-only-shared-and-node', 'electron/wire/usesHost.ts'],
    ['wire-imports-only-shared-and-node', 'electron/wire/usesPackage.ts'],
    ['core-is-plain-node', 'electron/core/usesWire.ts'],
    ['cli-clients-reach-the-host-over-the-wire', 'electron/cli/taskCommand.ts'],
    ['cli-clients-reach-the-host-over-the-wire', 'electron/cli/usesCore.ts'],
    ['cli-knows-no-desktop', 'electron/cli/usesDesktop.ts'],
    ['common-imports-only-shared-and-node', 'electron/common/usesCore.ts'],
    ['common-imports-only-shared-and-node', 'electron/common/usesPackage.ts'],
    ['desktop-not-from-main-or-renderer', 'electron/desktop/usesMain.ts'],
    ['main-wires-the-desktop', 'electron/main.ts'],
    ['core-is-plain-node', 'electron/core/usesDesktop.ts'],
    ['renderer-only-renderer-and-shared', 'renderer/usesCore.ts'],
    ['renderer-no-node-builtins', 'renderer/usesNode.ts'],
    ['shared-is-the-contract-only', 'shared/usesRenderer.ts'],
    ['storage-knows-no-domain', 'electron/core/storage/usesDomain.ts'],
    ['sql-only-in-storage', 'electron/core/tasks/usesSql.ts'],
    ['git-knows-no-domain', 'electron/core/git/usesDomain.ts'],
    ['core-domain-order', 'electron/core/worktrees/usesAgents.ts'],
    ['core-domain-order', 'electron/core/inbox/usesSessions.ts'],
    ['core-domain-has-a-place', 'electron/core/unplaced/usesTasks.ts'],
    ['no-circular', 'shared/typeCycleA.ts'],
  ])('reports %s for %s', (rule, file) => {
    expect(output).toMatch(new RegExp(`${rule}: ${file.replace(/\./g, '\\.')}`));
  });

  it('lets the wire build on shared/ and Node, the CLI on the wire, and host commands start a host', () => {
    expect(output).toContain('electron/wire/usesHost.ts');
    expect(output).not.toMatch(/: electron\/wire\/framing\.ts →/);
    expect(output).not.toMatch(/: electron\/cli\/taskCommand\.ts → electron\/wire\//);
    expect(output).not.toMatch(/cli-clients-reach-the-host-over-the-wire: electron\/cli\/hostCommands\.ts/);
  });

  it('lets common/ build on shared/ and Node, and a CLI client import it', () => {
    expect(output).not.toMatch(/: electron\/common\/quoting\.ts →/);
    expect(output).not.toMatch(/: electron\/cli\/usesCommon\.ts →/);
  });

  it('lets a core domain import the layers below its own', () => {
    expect(output).not.toMatch(/: electron\/core\/agents\/agentService\.ts →/);
  });

  it('lets the adapters of desktop/native/ import electron', () => {
    expect(output).toContain('electron/desktop/usesElectron.ts');
    expect(output).not.toMatch(/only-main-preload-and-desktop-native-import-electron: electron\/desktop\/native\//);
  });
});

/** scripts/check-architecture-map.mjs holds the picture of docs/architecture.md to the same rules. */
describe('the layers picture (npm run lint)', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir('drover-map-');
  });
  afterAll(() => removeDir(dir));

  const check = (markdown: string) => {
    const doc = path.join(dir, 'architecture.md');
    fs.writeFileSync(doc, markdown);
    return spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'check-architecture-map.mjs'), doc], { encoding: 'utf8' });
  };
  const picture = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8');

  it('passes the picture the docs draw', () => {
    const result = check(picture);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('names an arrow a rule forbids and an allowed import the picture leaves out', () => {
    const drawn = picture.replace('serves its doors"] --> core & wire & common & shared', 'serves its doors"] --> core & common & shared & cli');
    expect(drawn).not.toBe(picture);
    const result = check(drawn);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('missing arrow host --> wire: no rule forbids electron/host/any.ts importing electron/wire/any.ts');
    expect(result.stderr).toContain('extra arrow host --> cli: host-imports-core-wire-and-shared forbids electron/host/any.ts importing electron/cli/any.ts');
  });
});
