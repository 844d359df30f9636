import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/buildOnce';
import { makeTempDir, removeDir } from '../test-support/tempDir';

/**
 * Runs the repo's dependency-cruiser rules for the renderer's layers over a small renderer tree
 * that breaks each of them once, beside imports the layering allows.
 */
describe('renderer layering rules (npm run lint)', () => {
  let tree: string;
  let output: string;
  let status: number | null;

  const write = (file: string, ...imports: string[]) => {
    const text = imports.map((from, index) => `import { x as x${index} } from '${from}';\nexport const use${index} = x${index};\n`).join('');
    fs.mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    fs.writeFileSync(path.join(tree, file), `${text}export const x = 1;\n`);
  };

  beforeAll(() => {
    tree = makeTempDir('drover-renderer-arch-');
    fs.writeFileSync(path.join(tree, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }));
    // Allowed: each layer uses its own layer and the ones below it.
    write('renderer/main.tsx', './App');
    write('renderer/App.tsx', './views/page');
    write('renderer/views/page.ts', '../agents/agent', '../workState/panel', '../components/piece');
    write('renderer/agents/agent.ts', '../inbox/InboxDialog', '../terminal/AgentTerminal', '../store/slice');
    write('renderer/inbox/InboxDialog.tsx', './inboxWords', '../components/piece', '../format/words');
    write('renderer/inbox/inboxWords.ts');
    write('renderer/worktrees/diffChunks.ts');
    write('renderer/workState/panel.ts', '../terminal/TerminalView', '../keyboard/keys');
    write('renderer/terminal/AgentTerminal.tsx', '../store/slice', '../keyboard/keys');
    write('renderer/terminal/TerminalView.tsx');
    write('renderer/components/piece.ts', '../store/slice', '../format/words');
    write('renderer/store/slice.ts', '../bridge', '../format/words');
    write('renderer/bridge.ts', './transport/socket');
    write('renderer/transport/socket.ts');
    write('renderer/format/words.ts');
    write('renderer/keyboard/keys.ts');
    write('renderer/palette/palettePiece.ts', '../components/piece');
    write('renderer/attention/queue.ts', '../store/slice', '../components/piece');
    write('renderer/testing/fake.ts', '../transport/socket');
    write('renderer/keyboard/keys.test.ts', './keys', '../testing/fake');
    // Broken: one file for each rule.
    write('renderer/views/usesEntry.ts', '../main');
    write('renderer/agents/usesPage.ts', '../views/page');
    write('renderer/inbox/usesAgents.ts', '../agents/agent');
    write('renderer/terminal/usesWorkState.ts', '../workState/panel');
    write('renderer/components/usesWorkState.ts', '../workState/panel');
    write('renderer/store/usesComponents.ts', '../components/piece');
    write('renderer/format/usesStore.ts', '../store/slice');
    write('renderer/unplaced/usesStore.ts', '../store/slice');
    write('renderer/agents/usesInboxInternals.ts', '../inbox/inboxWords');
    write('renderer/workState/usesInbox.ts', '../inbox/InboxDialog');
    write('renderer/attention/usesPalette.ts', '../palette/palettePiece');
    write('renderer/worktrees/usesWorkState.ts', '../workState/panel');
    write('renderer/agents/usesWorktreeInternals.ts', '../worktrees/diffChunks');
    write('renderer/keyboard/usesTransport.ts', '../transport/socket');
    write('renderer/components/usesTesting.ts', '../testing/fake');
    const depcruise = path.join(REPO_ROOT, 'node_modules', '.bin', 'depcruise');
    const result = spawnSync(depcruise, ['--config', path.join(REPO_ROOT, '.dependency-cruiser.cjs'), 'renderer'], { cwd: tree, encoding: 'utf8' });
    output = result.stdout + result.stderr;
    status = result.status;
  });
  afterAll(() => removeDir(tree));

  it('fails the lint run', () => {
    expect(status).not.toBe(0);
  });

  it.each([
    ['renderer-pages-imports-no-layer-above', 'renderer/views/usesEntry.ts'],
    ['renderer-agents-imports-no-layer-above', 'renderer/agents/usesPage.ts'],
    ['renderer-features-imports-no-layer-above', 'renderer/inbox/usesAgents.ts'],
    ['renderer-terminal-imports-no-layer-above', 'renderer/terminal/usesWorkState.ts'],
    ['renderer-components-imports-no-layer-above', 'renderer/components/usesWorkState.ts'],
    ['renderer-store-imports-no-layer-above', 'renderer/store/usesComponents.ts'],
    ['renderer-base-imports-no-layer-above', 'renderer/format/usesStore.ts'],
    ['renderer-folder-has-a-layer', 'renderer/unplaced/usesStore.ts'],
    ['renderer-features-share-entry-points-only', 'renderer/agents/usesInboxInternals.ts'],
    ['renderer-features-independent', 'renderer/workState/usesInbox.ts'],
    ['renderer-features-independent', 'renderer/attention/usesPalette.ts'],
    ['renderer-features-independent', 'renderer/worktrees/usesWorkState.ts'],
    ['renderer-features-share-entry-points-only', 'renderer/agents/usesWorktreeInternals.ts'],
    ['renderer-base-modules-stand-alone', 'renderer/keyboard/usesTransport.ts'],
    ['renderer-testing-only-in-tests', 'renderer/components/usesTesting.ts'],
  ])('reports %s for %s', (rule, file) => {
    expect(output).toMatch(new RegExp(`${rule}: ${file.replace(/\./g, '\\.')}`));
  });

  it('reports only the files that break a rule', () => {
    const reported = [...output.matchAll(/error [\w-]+: (\S+) →/g)].map((match) => match[1]);
    expect(reported.length).toBeGreaterThan(0);
    expect(reported.filter((file) => !/\/uses\w+\.ts$/.test(file ?? ''))).toEqual([]);
  });
});
