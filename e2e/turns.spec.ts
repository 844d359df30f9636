import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { branchesStartingWith, git, makeRepo } from '../test-support/gitRepo';
import { inboxDialog, inboxMessage, openInbox, startFromPane } from './support/agentBridge';
import { withSocket } from './support/attention';
import { addAgent, openWorkspace, screenshot, stateBadge, terminalOf, typeLine } from './support/agents';
import { expect, test, type DroverWorld } from './support/droverHost';
import { branchOf, listedFiles, openChanges, openRepoWithShell, privatePortBlocks, worktreeFolder } from './support/worktrees';

function makeProjectRepo(drover: DroverWorld): string {
  return makeRepo(path.join(drover.root, 'shop'), { 'notes.txt': 'one\n', '.gitignore': '*.log\n' });
}

/**
 * One turn of a shell agent: the command runs, and the agent is Ready again (its turn ended) before
 * the next is typed; typed while it still runs, the next would go into it, as part of its turn.
 */
async function runTurn(page: Page, pane: Locator, agentName: string, command: string, marker: string): Promise<void> {
  const terminal = terminalOf(pane, agentName);
  await typeLine(page, terminal, `${command} && echo ${marker}-$((1 + 1))`);
  await expect(terminal).toContainText(`${marker}-2`);
  await expect(stateBadge(pane, 'Ready')).toBeVisible();
}

test('three shell turns: each turn shows only its change; restore to turn 1 and undo it; two comments go to the agent as one message', async ({ page, drover }) => {
  test.setTimeout(150_000);
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeProjectRepo(drover);
    const projectId = await openRepoWithShell(page, drover, repo);
    const pane = await addAgent(page, 'builder', 'Builds things', 'POSIX shell');
    await expect(branchOf(pane, 'builder')).toBeVisible();
    await startFromPane(pane);
    await runTurn(page, pane, 'builder', "printf 'first\\n' > one.txt", 'turn-one');
    await runTurn(page, pane, 'builder', "printf 'second\\n' > two.txt", 'turn-two');
    await runTurn(page, pane, 'builder', "printf 'one\\nthird\\n' > notes.txt", 'turn-three');
    const folder = worktreeFolder(repo, 'builder');

    const changes = await openChanges(page, pane, 'builder');
    const turns = changes.getByRole('listbox', { name: 'Turns' });
    await expect(turns.getByRole('option')).toHaveCount(4);
    await expect(turns.getByRole('option').first()).toContainText("printf 'one\\nthird\\n' > notes.txt");
    await expect(turns.getByRole('option').last()).toContainText('Start');
    expect(await listedFiles(changes)).toEqual(['notes.txt', 'one.txt', 'two.txt']);

    // Turn by turn from the keyboard: `.` goes to the newest turn, `,` one back each time.
    await page.keyboard.press('.');
    await expect(changes.getByRole('button', { name: 'This turn' })).toHaveAttribute('aria-pressed', 'true');
    await expect(turns.getByRole('option', { selected: true })).toContainText('notes.txt');
    await expect.poll(() => listedFiles(changes)).toEqual(['notes.txt']);
    await expect(changes.getByRole('region', { name: 'Diff' })).toContainText('third');
    await page.keyboard.press(',');
    await expect.poll(() => listedFiles(changes)).toEqual(['two.txt']);
    await expect(changes.getByRole('region', { name: 'Diff' })).toContainText('second');
    await page.keyboard.press(',');
    await expect.poll(() => listedFiles(changes)).toEqual(['one.txt']);
    await expect(changes.getByRole('region', { name: 'Diff' })).not.toContainText('third');
    await screenshot(page, 'turns-this-turn.png');
    await page.keyboard.press('s');
    await expect(changes.getByRole('button', { name: 'Since turn 1' })).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => listedFiles(changes)).toEqual(['notes.txt', 'one.txt', 'two.txt']);
    await page.keyboard.press('t');

    // A task working in the worktree holds a restore back, and the view says which.
    const slow = await withSocket(drover, (rpc) => rpc.call('createTask', { projectId, command: 'sleep 60', label: 'slow build', cwd: folder }));
    const restoreButton = changes.getByRole('button', { name: 'Restore to checkpoint 1…' });
    await expect(restoreButton).toBeDisabled();
    await expect(changes.getByText("slow build works in builder's worktree: restore once it has ended (or cancel it).")).toBeVisible();
    await withSocket(drover, (rpc) => rpc.call('cancelTask', { taskId: slow.id }));
    await expect(restoreButton).toBeEnabled();

    // Restore to turn 1: the later turns' files go back; the state before is a checkpoint to undo to.
    await restoreButton.click();
    const confirm = page.getByRole('alertdialog', { name: 'Restore checkpoint 1 of builder?' });
    await confirm.getByRole('button', { name: 'Restore' }).click();
    await expect(changes.getByRole('status').filter({ hasText: 'Restored checkpoint 1' })).toContainText('what was there before is checkpoint 4');
    expect(fs.existsSync(path.join(folder, 'two.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8')).toBe('one\n');
    expect(fs.readFileSync(path.join(folder, 'one.txt'), 'utf8')).toBe('first\n');
    await expect(turns.getByRole('option').first()).toContainText('Before restoring 1');
    await screenshot(page, 'turns-restored.png');
    await changes.getByRole('button', { name: 'Undo restore' }).click();
    await expect(changes.getByRole('status').filter({ hasText: 'Restored checkpoint 4' })).toBeVisible();
    expect(fs.readFileSync(path.join(folder, 'two.txt'), 'utf8')).toBe('second\n');
    expect(fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8')).toBe('one\nthird\n');

    // Two comments: one on lines dragged over in the diff, one from the keyboard (c).
    await page.keyboard.press('w');
    await expect.poll(() => listedFiles(changes)).toEqual(['notes.txt', 'one.txt', 'two.txt']);
    const diff = changes.getByRole('region', { name: 'Diff' });
    const notesHunk = diff.locator('.changes-diff__row', { hasText: 'third' });
    await notesHunk.locator('[data-line-new-num="1"]').hover();
    await page.mouse.down();
    await notesHunk.locator('[data-line-new-num="2"]').hover();
    await page.mouse.up();
    const form = changes.getByRole('form', { name: 'New comment' });
    await expect(form.getByLabel('File', { exact: true })).toHaveValue('notes.txt');
    await expect(form.getByLabel('First line')).toHaveValue('1');
    await expect(form.getByLabel('Last line')).toHaveValue('2');
    await expect(form.getByLabel('Lines commented on')).toHaveText('one\nthird');
    await form.getByLabel('Comment', { exact: true }).fill('Why is third here?');
    await form.getByRole('button', { name: 'Add comment' }).click();
    await expect(form).toHaveCount(0);
    await changes.getByRole('listbox', { name: 'Changed files' }).focus();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('c');
    await expect(form.getByLabel('File', { exact: true })).toHaveValue('two.txt');
    await expect(form.getByLabel('Comment', { exact: true })).toBeFocused();
    await page.keyboard.type('Name this file better.');
    await form.getByRole('button', { name: 'Add comment' }).click();
    const comments = changes.getByRole('list', { name: 'Comments on the diff' });
    await expect(comments.getByRole('article')).toHaveCount(2);
    await expect(comments.getByText('Not sent')).toHaveCount(2);
    await screenshot(page, 'turns-comments.png');
    await changes.getByRole('button', { name: 'Send 2 comments' }).click();
    await expect(changes.getByRole('status').filter({ hasText: 'Sent 2 comments' })).toBeVisible();
    await expect(comments.getByText('Sent', { exact: true })).toHaveCount(2);
    await page.keyboard.press('Escape');
    await expect(changes).toHaveCount(0);

    const inbox = await openInbox(page, pane, 'builder');
    const review = inboxDialog(page, 'builder').getByRole('article').filter({ hasText: 'Review comments on your changes' });
    await expect(review).toHaveCount(1);
    await expect(review).toContainText('1. notes.txt, lines 1–2:');
    await expect(review).toContainText('Why is third here?');
    await expect(review).toContainText('2. two.txt, line 1:');
    await expect(review).toContainText('Name this file better.');
    await expect(inboxMessage(inbox, 'Note from You').filter({ hasText: 'restored your worktree to checkpoint 1' })).toHaveCount(1);
    await page.keyboard.press('Escape');

    // The comments are there after a restart of the host, marked as sent.
    const restarted = await drover.startHost();
    await openWorkspace(page, restarted, projectId);
    const again = await openChanges(page, pane, 'builder');
    await expect(again.getByRole('list', { name: 'Comments on the diff' }).getByText('Sent', { exact: true })).toHaveCount(2);
    await expect(again.getByRole('listbox', { name: 'Turns' }).getByRole('option')).toHaveCount(6);
    // At phone width the columns stack, each as wide as the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const part of [again.getByRole('listbox', { name: 'Turns' }), again.getByRole('region', { name: 'Diff' }), again.getByRole('heading', { name: 'Comments' })]) {
      const box = await part.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    await screenshot(page, 'turns-phone.png');
  } finally {
    restorePorts();
  }
});

test('a hunk reverted from the changes view by key, held back while a task works in the worktree, and undone', async ({ page, drover }) => {
  test.setTimeout(90_000);
  const restorePorts = privatePortBlocks(drover);
  try {
    const numbered = (changed: Record<number, string> = {}) => Array.from({ length: 30 }, (_, index) => changed[index + 1] ?? `line ${index + 1}`).join('\n') + '\n';
    const repo = makeRepo(path.join(drover.root, 'shop'), { 'notes.txt': numbered() });
    const projectId = await openRepoWithShell(page, drover, repo);
    const pane = await addAgent(page, 'builder', 'Builds things', 'POSIX shell');
    await expect(branchOf(pane, 'builder')).toBeVisible();
    const folder = worktreeFolder(repo, 'builder');
    const edited = numbered({ 2: 'agent two', 27: 'agent twenty-seven' });
    fs.writeFileSync(path.join(folder, 'notes.txt'), edited);

    const changes = await openChanges(page, pane, 'builder');
    const diff = changes.getByRole('region', { name: 'Diff' });
    await expect(diff).toContainText('agent twenty-seven');
    const revertHunk = diff.getByRole('button', { name: 'Revert hunk' });
    await expect(revertHunk).toHaveCount(2);

    // A task working in the worktree holds a revert back; the buttons say why.
    const slow = await withSocket(drover, (rpc) => rpc.call('createTask', { projectId, command: 'sleep 60', label: 'slow build', cwd: folder }));
    await expect(revertHunk.first()).toBeDisabled();
    await expect(revertHunk.first()).toHaveAttribute('title', "slow build works in builder's worktree: revert once it has ended (or cancel it).");
    await withSocket(drover, (rpc) => rpc.call('cancelTask', { taskId: slow.id }));
    await expect(revertHunk.first()).toBeEnabled();

    // x reverts the hunk at the top of the diff: line 2's; line 27's stays.
    await diff.focus();
    await page.keyboard.press('x');
    await expect(changes.getByRole('status').filter({ hasText: 'Reverted the hunk at line 2 of notes.txt' })).toContainText('what was there before is checkpoint 0');
    await expect(diff).not.toContainText('agent two');
    await expect(diff).toContainText('agent twenty-seven');
    expect(fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8')).toBe(numbered({ 27: 'agent twenty-seven' }));
    await expect(changes.getByRole('listbox', { name: 'Turns' }).getByRole('option').first()).toContainText('Before reverting the hunk at line 2 of notes.txt');
    await screenshot(page, 'changes-hunk-reverted.png');

    await changes.getByRole('button', { name: 'Undo revert' }).click();
    await expect(diff).toContainText('agent two');
    expect(fs.readFileSync(path.join(folder, 'notes.txt'), 'utf8')).toBe(edited);
  } finally {
    restorePorts();
  }
});

test('two agents compared side by side: one taken (merged), the other archived with its branch kept', async ({ page, drover }) => {
  test.setTimeout(150_000);
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeProjectRepo(drover);
    await openRepoWithShell(page, drover, repo);
    for (const name of ['alpha', 'beta']) {
      const pane = await addAgent(page, name, 'Tries the task', 'POSIX shell');
      await startFromPane(pane);
      await runTurn(page, pane, name, `printf 'one\\n${name} way\\n' > notes.txt && printf '${name}\\n' > ${name}.txt && git add -A && git commit -qm '${name} try'`, `done-${name}`);
    }
    const betaBranch = (await branchOf(page.getByRole('region', { name: 'beta', exact: true }), 'beta').innerText()).trim();

    await page.getByRole('button', { name: 'Compare agents' }).click();
    const compare = page.getByRole('dialog', { name: 'Compare agents' });
    const table = compare.getByRole('table', { name: /Files each agent changed/ });
    await expect(table.getByRole('row', { name: /notes\.txt/ })).toContainText('+1 −0');
    await expect(table.getByRole('row', { name: /alpha\.txt/ })).toContainText('—');
    await expect(table.getByRole('row', { name: /beta\.txt/ })).toContainText('+1 −0');
    const sideBySide = compare.getByRole('region', { name: 'Side by side' });
    await expect(sideBySide.getByLabel('Left')).toHaveValue(/a-/);
    await expect(sideBySide.getByRole('region', { name: 'Diff' })).toContainText('alpha way');
    await expect(sideBySide.getByRole('region', { name: 'Diff' })).toContainText('beta way');
    await screenshot(page, 'turns-compare.png');

    await compare.getByRole('button', { name: 'Take alpha' }).click();
    const merge = page.getByRole('dialog', { name: /^Merge drover\/alpha-\w+ into main$/ });
    await merge.getByRole('button', { name: 'Merge into main' }).click();
    await expect(merge.getByRole('status')).toContainText('Merged 1 commit');
    await merge.getByRole('button', { name: 'Close' }).click();
    await expect(compare.getByRole('status').filter({ hasText: 'Took alpha' })).toBeVisible();
    expect(fs.readFileSync(path.join(repo, 'notes.txt'), 'utf8')).toBe('one\nalpha way\n');
    await compare.getByRole('button', { name: 'Archive beta' }).click();
    await expect(compare.getByRole('list', { name: 'Archived' })).toContainText(`Archived beta; its branch ${betaBranch} is kept.`);
    await screenshot(page, 'turns-compare-taken.png');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('region', { name: 'beta', exact: true })).toHaveCount(0);
    expect(branchesStartingWith(repo, 'drover/beta-')).toEqual([betaBranch]);
    expect(git(repo, 'show', `${betaBranch}:notes.txt`)).toBe('one\nbeta way');
  } finally {
    restorePorts();
  }
});
