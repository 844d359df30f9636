import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { branchesStartingWith, git, holdWorktreeCreation, makeRepo } from '../test-support/gitRepo';
import { addAgent, openWorkspace, paneMenuAction, screenshot, terminalOf, typeLine } from './support/agents';
import { expect, test, type DroverWorld } from './support/droverHost';
import { inboxMessage, openInbox, startFromPane } from './support/agentBridge';
import { branchOf, openChanges, openRepoWithShell, privatePortBlocks, worktreeFolder } from './support/worktrees';

/** A repository whose `.env` (ignored, named in .worktreeinclude) every new worktree must get. */
function makeProjectRepo(drover: DroverWorld): string {
  const repo = makeRepo(path.join(drover.root, 'shop'), {
    'shared.txt': 'one\ntwo\nthree\n',
    '.gitignore': '.env\n',
    '.worktreeinclude': '.env\n',
  });
  fs.writeFileSync(path.join(repo, '.env'), 'SECRET=from-the-project\n');
  return repo;
}

/** The agent's shell changes the shared file its own way and commits it. */
async function commitChange(page: Page, pane: Locator, agent: string): Promise<void> {
  const terminal = terminalOf(pane, agent);
  await typeLine(page, terminal, `printf 'one\\n${agent} was here\\nthree\\n' > shared.txt && git commit -qam '${agent} edits' && echo "committed-$(cat .env)-port-$DROVER_PORT"`);
  await expect(terminal).toContainText(/committed-SECRET=from-the-project-port-\d+/);
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every part of a pane's header is drawn whole, inside the pane, over nothing else. */
async function expectHeaderFits(pane: Locator, agent: string): Promise<void> {
  const paneBox = (await pane.boundingBox()) as Box;
  const header = pane.locator('header');
  const parts = [branchOf(pane, agent), ...(await header.getByRole('button').all())];
  const boxes: Box[] = [];
  for (const part of parts) {
    const box = await part.boundingBox();
    expect(box, 'a header part is drawn').not.toBeNull();
    boxes.push(box as Box);
  }
  // The branch shows more than its ellipsis.
  expect(boxes[0]!.width).toBeGreaterThan(40);
  for (const [index, box] of boxes.entries()) {
    expect(box.x, `header part ${index} inside the pane`).toBeGreaterThanOrEqual(paneBox.x);
    expect(box.x + box.width, `header part ${index} inside the pane`).toBeLessThanOrEqual(paneBox.x + paneBox.width);
    for (const other of boxes.slice(index + 1)) expect(overlaps(box, other), `header part ${index} over another`).toBe(false);
  }
}

test('two agents in their own worktrees: each diff shows its own change, the first merges, the second conflicts and goes back to its agent', async ({ page, drover }) => {
  test.setTimeout(150_000);
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeProjectRepo(drover);
    await openRepoWithShell(page, drover, repo);

    await page.getByRole('button', { name: 'Add agent' }).click();
    const form = page.getByRole('dialog', { name: 'Add agent' });
    await expect(form.getByRole('radio', { name: 'Its own worktree, on a new branch' })).toBeChecked();
    await expect(form.getByLabel('Starts from')).toHaveValue('main');
    await screenshot(page, 'worktrees-add-agent.png');
    await form.getByRole('button', { name: 'Cancel' }).click();

    const alpha = await addAgent(page, 'alpha', 'Edits the shared file', 'POSIX shell');
    const beta = await addAgent(page, 'beta', 'Edits it too', 'POSIX shell');
    await expect(branchOf(alpha, 'alpha')).toBeVisible();
    await expect(branchOf(beta, 'beta')).toBeVisible();
    await startFromPane(alpha);
    await startFromPane(beta);
    await commitChange(page, alpha, 'alpha');
    await commitChange(page, beta, 'beta');
    await screenshot(page, 'worktrees-panes.png');
    // Side by side in a narrow window, a header wraps rather than drawing its parts over each other.
    await page.setViewportSize({ width: 760, height: 560 });
    await expectHeaderFits(alpha, 'alpha');
    await expectHeaderFits(beta, 'beta');
    await screenshot(page, 'worktrees-narrow-panes.png');
    await page.setViewportSize({ width: 1400, height: 900 });

    // Each diff shows its own change only.
    const alphaChanges = await openChanges(page, alpha, 'alpha');
    await expect(alphaChanges.getByRole('listbox', { name: 'Changed files' }).getByRole('option', { name: /shared\.txt/ })).toContainText('+1 −1');
    const alphaDiff = alphaChanges.getByRole('region', { name: 'Diff' });
    await expect(alphaDiff).toContainText('alpha was here');
    await expect(alphaDiff).not.toContainText('beta was here');
    // The open view follows the worktree: a new file shows up, and the keys move through the files.
    const alphaFolder = worktreeFolder(repo, 'alpha');
    fs.writeFileSync(path.join(alphaFolder, 'notes.md'), 'first\nsecond\n');
    const notes = alphaChanges.getByRole('listbox', { name: 'Changed files' }).getByRole('option', { name: /notes\.md/ });
    await expect(notes).toContainText('untracked');
    await expect(notes).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('j');
    await expect(alphaChanges.getByRole('listbox', { name: 'Changed files' }).getByRole('option', { name: /shared\.txt/ })).toHaveAttribute('aria-selected', 'true');
    await screenshot(page, 'worktrees-changes.png');
    fs.rmSync(path.join(alphaFolder, 'notes.md'));
    await expect(notes).toHaveCount(0);
    await page.keyboard.press('Escape');
    const betaChanges = await openChanges(page, beta, 'beta');
    await expect(betaChanges.getByRole('region', { name: 'Diff' })).toContainText('beta was here');
    await expect(betaChanges.getByRole('region', { name: 'Diff' })).not.toContainText('alpha was here');
    await page.keyboard.press('Escape');

    // The first merges into main, from the keyboard: m opens the merge.
    await openChanges(page, alpha, 'alpha');
    await page.keyboard.press('m');
    const alphaMerge = page.getByRole('dialog', { name: /^Merge drover\/alpha-\w+ into main$/ });
    await alphaMerge.getByRole('button', { name: 'Merge into main' }).click();
    await expect(alphaMerge.getByRole('status')).toContainText('Merged 1 commit');
    expect(fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8')).toBe('one\nalpha was here\nthree\n');
    await alphaMerge.getByRole('button', { name: 'Close' }).click();
    await page.keyboard.press('Escape');

    // The second conflicts: reported without touching the main checkout, then handed back.
    const mainBefore = { head: git(repo, 'rev-parse', 'HEAD'), status: git(repo, 'status', '--porcelain'), file: fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8') };
    await openChanges(page, beta, 'beta');
    await page.getByRole('button', { name: 'Merge into main…' }).click();
    const betaMerge = page.getByRole('dialog', { name: /^Merge drover\/beta-\w+ into main$/ });
    await expect(betaMerge.getByRole('alert')).toContainText('conflicts in 1 file');
    await expect(betaMerge.getByRole('list', { name: 'Conflicting files' })).toHaveText('shared.txt');
    await expect(betaMerge.getByRole('button', { name: 'Merge into main' })).toHaveCount(0);
    await screenshot(page, 'worktrees-conflict.png');
    expect({ head: git(repo, 'rev-parse', 'HEAD'), status: git(repo, 'status', '--porcelain'), file: fs.readFileSync(path.join(repo, 'shared.txt'), 'utf8') }).toEqual(mainBefore);
    await betaMerge.getByRole('button', { name: 'Hand back to beta' }).click();
    await expect(betaMerge.getByRole('status')).toContainText("Sent to beta's inbox");
    await betaMerge.getByRole('button', { name: 'Close' }).click();
    await page.keyboard.press('Escape');
    const inbox = await openInbox(page, beta, 'beta');
    await expect(inboxMessage(inbox, 'Note from You')).toContainText('Please rebase on main and resolve them');
    await expect(inboxMessage(inbox, 'Note from You')).toContainText('shared.txt');
    await page.keyboard.press('Escape');

    // Removing beta, whose branch has work main lacks, keeps that branch.
    const betaBranch = (await branchOf(beta, 'beta').innerText()).trim();
    const betaFolder = worktreeFolder(repo, 'beta');
    await paneMenuAction(page, 'beta', 'Remove agent…');
    const remove = page.getByRole('alertdialog', { name: 'Remove beta?' });
    await expect(remove).toContainText(`${betaBranch} has 1 commit main lacks`);
    await screenshot(page, 'worktrees-remove.png');
    await remove.getByRole('button', { name: 'Remove agent, keep branch' }).click();
    await expect(beta).toHaveCount(0);
    expect(branchesStartingWith(repo, 'drover/beta-')).toEqual([betaBranch]);
    expect(fs.existsSync(betaFolder)).toBe(false);
    expect(git(repo, 'show', `${betaBranch}:shared.txt`)).toBe('one\nbeta was here\nthree');
  } finally {
    restorePorts();
  }
});

test('a crash while a worktree is being made leaves nothing behind after the next boot', async ({ page, drover }) => {
  const restorePorts = privatePortBlocks(drover);
  const repo = makeProjectRepo(drover);
  const hold = holdWorktreeCreation(repo, drover.root);
  try {
    const projectId = await openRepoWithShell(page, drover, repo);
    await page.getByRole('button', { name: 'Add agent' }).click();
    const form = page.getByRole('dialog', { name: 'Add agent' });
    await form.getByLabel('Name', { exact: true }).fill('doomed');
    await form.getByLabel('Profile').selectOption({ label: 'POSIX shell' });
    await form.getByRole('button', { name: 'Add agent' }).click();
    await expect.poll(() => fs.existsSync(hold.started)).toBe(true);
    expect(branchesStartingWith(repo, 'drover/doomed-')).toHaveLength(1);
    await drover.host().stop('SIGKILL');

    const restarted = await drover.startHost();
    await openWorkspace(page, restarted, projectId);
    await expect(page.getByText('No agents yet')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Worktrees: 0' })).toBeVisible();
    expect(branchesStartingWith(repo, 'drover/')).toEqual([]);
    expect(git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree '))).toEqual([`worktree ${repo}`]);
    expect(fs.readdirSync(path.join(drover.dataDir, 'projects', projectId, 'worktrees'))).toEqual([]);
  } finally {
    // The git the killed host had started ends once its filter lets go (a test that failed before
    // the filter ran must not hide its own error behind this wait).
    fs.writeFileSync(hold.gate, '');
    if (fs.existsSync(hold.started)) await expect.poll(() => fs.existsSync(hold.done)).toBe(true);
    restorePorts();
  }
});

test('the changes view draws the diff\'s lines first and colours them once painted, in every language highlight.js knows: the common ones, and the rest once their grammars are in', async ({ page, drover }) => {
  const restorePorts = privatePortBlocks(drover);
  try {
    const repo = makeRepo(path.join(drover.root, 'polyglot'), { 'src/cart.ts': 'export const items = 1;\n', 'lib/cart.ex': 'defmodule Cart do\nend\n' });
    await openRepoWithShell(page, drover, repo);
    const pane = await addAgent(page, 'painter', 'Edits two languages', 'POSIX shell');
    await expect(branchOf(pane, 'painter')).toBeVisible();
    const folder = worktreeFolder(repo, 'painter');
    fs.writeFileSync(path.join(folder, 'src', 'cart.ts'), 'export const items = 2;\n');
    // Elixir is not among highlight.js's common grammars, which the diff viewer starts with.
    fs.writeFileSync(path.join(folder, 'lib', 'cart.ex'), 'defmodule Cart do\n  def total, do: 2\nend\n');
    // Whether code was already coloured when the diff's first lines entered the page.
    const colouredAtFirstLines = page.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          const observer = new MutationObserver(() => {
            if (!document.querySelector('.changes-diff .diff-line')) return;
            observer.disconnect();
            resolve(document.querySelector('.changes-diff [class*="hljs-"]') !== null);
          });
          observer.observe(document.body, { childList: true, subtree: true });
        }),
    );
    const diff = (await openChanges(page, pane, 'painter')).getByRole('region', { name: 'Diff' });
    expect(await colouredAtFirstLines).toBe(false);
    await expect(diff.locator('.hljs-keyword', { hasText: /^export$/ }).first()).toBeVisible();
    await expect(diff.locator('.hljs-keyword', { hasText: /^defmodule$/ }).first()).toBeVisible();
  } finally {
    restorePorts();
  }
});
