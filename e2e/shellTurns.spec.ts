import fs from 'node:fs';
import path from 'node:path';
import type { AgentProfileInput } from '../shared/entities/profiles';
import { makeRepo } from '../test-support/gitRepo';
import { startFromPane } from './support/agentBridge';
import { addAgent, openWorkspace, saveProfiles, screenshot, stateBadge, terminalOf, typeLine } from './support/agents';
import { expect, test } from './support/droverHost';
import { branchOf, listedFiles, openChanges, privatePortBlocks, worktreeFolder } from './support/worktrees';

/**
 * Bash as the built-in Shell profile runs it (its prompt pattern), with a quiet period long enough
 * that a command typed right after the last one's output ends finds that output still settling.
 */
const BASH: AgentProfileInput = {
  id: 'bash',
  name: 'Bash',
  command: 'bash',
  args: ['--norc', '--noprofile'],
  env: { PS1: '$ ' },
  promptPattern: String.raw`[$#%>] ?$(?![\s\S]*\S)`,
  busyPattern: null,
  needsInputPattern: null,
  usageLimitPattern: null,
  quietMs: 2_500,
  integration: 'none',
  wakeAs: 'shell-note',
};

test('bash: a command typed ~3 s after the last one, while its output settles, is a turn of its own; "Before restoring 1" shows what Undo brings back', async ({ page, drover }) => {
  test.setTimeout(120_000);
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeRepo(path.join(drover.root, 'shop'), { 'notes.txt': 'one\n' });
    const url = await drover.startHost(['--project', repo]);
    const projectId = await saveProfiles(drover, repo, [BASH]);
    await openWorkspace(page, url, projectId);
    const pane = await addAgent(page, 'builder', 'Builds things', 'Bash');
    await expect(branchOf(pane, 'builder')).toBeVisible();
    await startFromPane(pane);
    const terminal = terminalOf(pane, 'builder');

    // The first command prints for about three seconds, then writes its file.
    await typeLine(page, terminal, "for i in 1 2 3; do echo tick-$i; sleep 1; done; printf 'a\\n' > one.txt; echo one-$((1 + 1))");
    await expect(terminal).toContainText('one-2');
    // Its output has not been quiet long enough to be read yet: the agent still counts as busy.
    await expect(stateBadge(pane, 'Busy')).toBeVisible();
    await typeLine(page, terminal, "printf 'b\\n' > two.txt");
    await expect(stateBadge(pane, 'Ready')).toBeVisible({ timeout: 15_000 });

    const changes = await openChanges(page, pane, 'builder');
    const turns = changes.getByRole('listbox', { name: 'Turns' });
    await expect(turns.getByRole('option')).toHaveCount(3);
    await expect(turns.getByRole('option').first()).toContainText("printf 'b\\n' > two.txt");
    await page.keyboard.press('.');
    await expect(changes.getByRole('button', { name: 'This turn' })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => listedFiles(changes)).toEqual(['two.txt']);
    await page.keyboard.press(',');
    await expect(turns.getByRole('option', { selected: true })).toContainText('one.txt');
    await expect.poll(() => listedFiles(changes)).toEqual(['one.txt']);
    await screenshot(page, 'shell-turns-each-command.png');

    // Restore to turn 1: two.txt goes. The checkpoint kept before it reads as what Undo brings back: two.txt, added.
    await changes.getByRole('button', { name: 'Restore to checkpoint 1…' }).click();
    await page.getByRole('alertdialog', { name: 'Restore checkpoint 1 of builder?' }).getByRole('button', { name: 'Restore' }).click();
    await expect(changes.getByRole('status').filter({ hasText: 'Restored checkpoint 1' })).toContainText('what was there before is checkpoint 3');
    expect(fs.existsSync(path.join(worktreeFolder(repo, 'builder'), 'two.txt'))).toBe(false);
    await expect(turns.getByRole('option').first()).toContainText('Before restoring 1');
    await expect(turns.getByRole('option').first()).toContainText('+1');
    await turns.getByRole('option').first().click();
    await expect(turns.getByRole('option', { selected: true })).toContainText('Before restoring 1');
    await expect(changes.getByRole('button', { name: 'This turn' })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => listedFiles(changes)).toEqual(['two.txt']);
    await expect(changes.getByRole('listbox', { name: 'Changed files' }).getByLabel('added')).toHaveCount(1);
    await screenshot(page, 'shell-turns-before-restoring.png');
  } finally {
    restorePorts();
  }
});
