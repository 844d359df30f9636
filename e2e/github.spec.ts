import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { FakeGitHub } from '../test-support/fakeGitHub';
import { addBareOrigin, git, makeRepo } from '../test-support/gitRepo';
import { inboxMessage, openInbox } from './support/agentBridge';
import { addAgent, agentPane, openWorkspace, paneMenuAction, saveProfiles, screenshot, SHELL_AGENT_PROFILE, terminalOf, typeLine } from './support/agents';
import { needsYouButton, withSocket } from './support/attention';
import { branchOf } from './support/worktrees';
import { expect, test } from './support/droverHost';

const TOKEN = 'ghp_e2etoken0123456789';

/** The agent's shell edits the cart, commits, and says so. */
async function commitInTerminal(page: Page, terminal: Locator, content: string, message: string): Promise<void> {
  await typeLine(page, terminal, `printf '${content}\\n' > src/cart.js && git commit -qam '${message}' && echo "done: $(git log -1 --format=%s)"`);
  await expect(terminal).toContainText(`done: ${message}`);
}

/**
 * The wake types its note, then submits it: the shell's next prompt right after the last note says
 * it is done, and only then may the person type (keys typed meanwhile land inside the note's line).
 */
async function wakeSubmitted(terminal: Locator): Promise<void> {
  await expect(terminal).toContainText(/\[Drover\] New message[^$]*'\s*\$\s*$/);
}

function pullRequestDialog(page: Page, number: number): Locator {
  return page.getByRole('dialog', { name: `Pull request #${number}` });
}

test('an issue becomes an agent, its pull request goes through failed checks and a review back to it, merges, and the agent is archived', async ({ page, drover }) => {
  test.setTimeout(180_000);
  const repo = makeRepo(path.join(drover.root, 'shop'), { 'src/cart.js': 'export const total = () => 2;\n' });
  const bare = addBareOrigin(repo, path.join(drover.root, 'remote.git'));
  const fake = new FakeGitHub({ repository: 'acme/shop', bareRepo: bare, token: TOKEN });
  await fake.listen();
  const issue = fake.addIssue({ title: 'Cart drops the last item', body: 'Put three items in the cart: it shows two.', labels: ['bug'], assignees: ['octo-person'], author: 'customer' });
  fake.addIssue({ title: 'Dark mode', body: 'Please.', labels: ['feature'], assignees: [], author: 'designer' });
  try {
    const url = await drover.startHost(['--project', repo], {
      ...process.env,
      DROVER_GITHUB_API_URL: fake.url,
      GH_TOKEN: TOKEN,
      DROVER_GITHUB_POLL_MS: '300',
      DROVER_PORT_BLOCKS_DIR: path.join(drover.root, 'port-blocks'),
    });
    const projectId = await saveProfiles(drover, repo, [SHELL_AGENT_PROFILE]);
    await openWorkspace(page, url, projectId);

    // origin is a local folder: name the repository on GitHub in the project's GitHub settings.
    await page.getByRole('button', { name: 'GitHub', exact: true }).click();
    const settings = page.getByRole('dialog', { name: 'GitHub' });
    await expect(settings.getByRole('alert').first()).toContainText('is not a GitHub repository Drover recognises');
    await settings.getByLabel('Repository').fill('acme/shop');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(settings.getByRole('status')).toContainText('Connected as octo-person through GH_TOKEN / GITHUB_TOKEN');
    await expect(settings.getByText('Drover keeps a pasted token in')).toContainText('mode 0600');
    // The host's token stays in the host unless the project gives it to its agents and tasks.
    await expect(settings.getByRole('checkbox', { name: "Give this project's agents and tasks the host's GH_TOKEN and GITHUB_TOKEN" })).not.toBeChecked();
    await screenshot(page, 'github-settings.png');
    await settings.getByRole('button', { name: 'Close' }).click();

    // Issues in: filter, then start an agent on the cart issue, on the shell profile.
    await page.getByRole('button', { name: 'Issues', exact: true }).click();
    const issues = page.getByRole('dialog', { name: 'Issues' });
    const list = issues.getByRole('list', { name: 'Open issues' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    await issues.getByLabel('Assigned to me').check();
    await issues.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await issues.getByLabel('Profile for new agents').selectOption({ label: 'POSIX shell' });
    await screenshot(page, 'github-issues.png');
    await list.getByRole('button', { name: `Start an agent on #${issue}` }).click();
    await expect(issues).toBeHidden();

    const agentName = `issue-${issue}`;
    const pane = agentPane(page, agentName);
    const terminal = terminalOf(pane, agentName);
    await expect(pane.getByText(`drover/issue-${issue}-cart-drops-the-last-item`, { exact: true })).toBeVisible();
    // Its first prompt is the issue, typed in through the wake once the shell was ready (as a note it does not run).
    await expect(terminal).toContainText(`GitHub issue #${issue}: Cart drops the last item`);
    await wakeSubmitted(terminal);

    await commitInTerminal(page, terminal, 'export const total = () => 3;', 'Count the third item');
    const worktree = git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree ')).map((line) => line.slice('worktree '.length)).find((folder) => folder !== repo) as string;
    const branch = git(worktree, 'branch', '--show-current');
    const firstHead = git(worktree, 'rev-parse', 'HEAD');

    // Open its pull request from the drafted title and body.
    await paneMenuAction(page, agentName, 'Open pull request…');
    const form = page.getByRole('dialog', { name: `Open a pull request for ${agentName}` });
    await expect(form.getByLabel('Title')).toHaveValue('Count the third item');
    await expect(form.getByLabel('Description')).toHaveValue(`Fixes #${issue}`);
    await screenshot(page, 'github-open-pull-request.png');
    await form.getByRole('button', { name: 'Open pull request' }).click();
    const number = 3;
    const dialog = pullRequestDialog(page, number);
    await expect(dialog.getByRole('list', { name: 'Checks' })).toContainText('build');
    expect(git(bare, 'rev-parse', `refs/heads/${branch}`)).toBe(firstHead);
    await dialog.getByRole('button', { name: 'Close' }).click();
    const chip = pane.getByRole('button', { name: /^Pull request #3 / });
    await expect(chip).toHaveText(/#3 open · checks running/);

    // The checks fail: Needs you, and Send to agent puts the failure in its inbox.
    fake.setChecks(firstHead, 'failed');
    await expect(chip).toHaveText(/#3 open · checks failed/);
    await needsYouButton(page, 1).click();
    const queue = page.getByRole('dialog', { name: 'Needs you' });
    await expect(queue.getByRole('listitem', { name: /Checks failed/ })).toContainText('build, test (node 20) failed');
    await screenshot(page, 'github-needs-you.png');
    await queue.getByRole('button', { name: `Send the failed checks to ${agentName}` }).click();
    await expect(queue.getByText('Nothing needs you right now.')).toBeVisible();
    await queue.getByRole('button', { name: 'Close' }).click();
    const inbox = await openInbox(page, pane, agentName);
    const failure = inboxMessage(inbox, 'Note from You').first();
    await expect(failure).toContainText(FakeGitHub.BUILD_FAILURE);
    await expect(failure).toContainText(FakeGitHub.LOG_FAILURE);
    await page.keyboard.press('Escape');
    await wakeSubmitted(terminal);

    // A new commit, pushed from the pull request; its checks pass.
    await commitInTerminal(page, terminal, 'export const total = () => 3; // every item', 'Keep every item');
    const secondHead = git(worktree, 'rev-parse', 'HEAD');
    await chip.click();
    await dialog.getByRole('button', { name: 'Push branch' }).click();
    await expect(dialog.getByRole('status')).toContainText(`Pushed ${branch} to origin`);
    await expect(dialog).toContainText(secondHead.slice(0, 10));
    fake.setChecks(secondHead, 'passed');
    await expect(dialog.getByRole('listitem', { name: 'build: Passed' })).toBeVisible();
    await expect(chip).toHaveText(/#3 open · checks passed/);

    // A review comment goes to the agent too.
    fake.addReviewComment(number, { path: 'src/cart.js', line: 1, diffHunk: '@@ -1 +1 @@\n+export const total = () => 3; // every item', body: 'Name the constant rather than commenting it.', author: 'reviewer' });
    await expect(dialog.getByRole('button', { name: `Send review comments to ${agentName}` })).toBeVisible();
    await expect(needsYouButton(page, 1)).toBeVisible();
    await dialog.getByRole('button', { name: `Send review comments to ${agentName}` }).click();
    await expect(dialog.getByRole('status')).toContainText(`Sent 1 review comment to ${agentName}'s inbox`);
    await expect(needsYouButton(page, 0)).toBeVisible();
    await screenshot(page, 'github-pull-request.png');
    // At phone width the dialog stays whole on screen, its merge within reach.
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog.getByRole('button', { name: 'Merge pull request' }).scrollIntoViewIfNeeded();
    await expect(dialog.getByRole('button', { name: 'Merge pull request' })).toBeInViewport();
    await screenshot(page, 'github-pull-request-phone.png');
    await page.setViewportSize({ width: 1400, height: 900 });

    // Merge, then archive: the branch and the worktree go, nothing else.
    const before = { branches: git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n'), head: git(repo, 'rev-parse', 'HEAD'), status: git(repo, 'status', '--porcelain') };
    await dialog.getByRole('button', { name: 'Merge pull request' }).click();
    await expect(dialog.getByRole('status')).toContainText(`Merged #${number} into main`);
    expect(git(bare, 'show', 'main:src/cart.js')).toBe('export const total = () => 3; // every item');
    await expect(dialog.getByRole('button', { name: `Archive ${agentName}` })).toBeVisible();
    await screenshot(page, 'github-merged.png');
    await dialog.getByRole('button', { name: `Archive ${agentName}` }).click();
    await expect(pane).toHaveCount(0);
    expect(git(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').split('\n')).toEqual(before.branches.filter((name) => name !== branch));
    expect({ head: git(repo, 'rev-parse', 'HEAD'), status: git(repo, 'status', '--porcelain') }).toEqual({ head: before.head, status: before.status });
    expect(fs.existsSync(worktree)).toBe(false);
    expect(git(bare, 'rev-parse', `refs/heads/${branch}`)).toBe(secondHead);
    expect(fake.tokenLeaks()).toEqual([]);
  } finally {
    await fake.close();
  }
});

test('a project without an origin remote says so, and what to do, before any pull request form: from the pane and from the palette', async ({ page, drover }) => {
  const repo = makeRepo(path.join(drover.root, 'shop'), { 'src/cart.js': 'export const total = () => 2;\n' });
  const bare = path.join(drover.root, 'remote.git');
  const fake = new FakeGitHub({ repository: 'acme/shop', bareRepo: bare, token: TOKEN });
  await fake.listen();
  try {
    const url = await drover.startHost(['--project', repo], {
      ...process.env,
      DROVER_GITHUB_API_URL: fake.url,
      GH_TOKEN: TOKEN,
      DROVER_PORT_BLOCKS_DIR: path.join(drover.root, 'port-blocks'),
    });
    const projectId = await saveProfiles(drover, repo, [SHELL_AGENT_PROFILE]);
    // The repository named in the settings is where a pull request goes, not where its branch is pushed.
    await withSocket(drover, (rpc) => rpc.call('updateProjectSettings', { projectId, settings: { forgeRepository: 'acme/shop' } }));
    await openWorkspace(page, url, projectId);
    const pane = await addAgent(page, 'sam', 'Fixes the cart', 'POSIX shell');
    await expect(branchOf(pane, 'sam')).toBeVisible();
    const dialog = page.getByRole('dialog', { name: 'Open a pull request for sam' });
    const noOrigin = async () => {
      await expect(dialog.getByRole('alert')).toContainText('This project has no origin remote');
      await expect(dialog.getByRole('alert')).toContainText(`add one with git remote add origin URL (in ${repo})`);
      await expect(dialog.getByLabel('Title')).toHaveCount(0);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
    };

    await paneMenuAction(page, 'sam', 'Open pull request…');
    await noOrigin();

    await page.keyboard.press('Control+Shift+P');
    await page.keyboard.type('pull request sam');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect(palette.getByRole('option', { name: 'Open a pull request for sam…' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await noOrigin();

    // With an origin, the same button drafts the form.
    addBareOrigin(repo, bare);
    await paneMenuAction(page, 'sam', 'Open pull request…');
    await expect(dialog.getByLabel('Title')).toBeVisible();
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([]);
  } finally {
    await fake.close();
  }
});
