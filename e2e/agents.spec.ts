import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/droverHost';
import { withSocket } from './support/attention';
import { holdFromHost, holdReplies } from './support/heldFrames';
import {
  addAgent,
  addedAgent,
  FAKE_PROFILE,
  openWorkspace,
  paneMenuAction,
  saveProfiles,
  screenshot,
  SHELL_AGENT_PROFILE,
  startedShellAgent,
  stateBadge,
  terminalOf,
  typeLine,
} from './support/agents';

/** Asks the shell agent's PTY its size; returns [rows, cols] as the PTY reports them. */
async function ptySize(page: Page, shell: Locator, marker: string): Promise<[number, number]> {
  await typeLine(page, shell, `echo ${marker} $(stty size)`);
  const line = shell.locator('.xterm-rows > div', { hasText: new RegExp(`^${marker} \\d+ \\d+`) });
  await expect(line).toHaveCount(1);
  const [, rows, cols] = (await line.innerText()).trim().split(/\s+/).map(Number);
  return [rows ?? 0, cols ?? 0];
}

function visibleRows(terminal: Locator): Promise<number> {
  return terminal.locator('.xterm-rows > div').count();
}

test('adds an agent, talks to it in its terminal, follows resizes, and resumes it after a host restart', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop-api');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [FAKE_PROFILE, SHELL_AGENT_PROFILE]);
  await openWorkspace(page, url, projectId);
  await expect(page.getByRole('region', { name: 'Work state' })).toBeVisible();

  const backend = await addAgent(page, 'backend', 'API and database migrations', 'Fake agent');
  await expect(stateBadge(backend, 'Not started')).toBeVisible();
  await backend.getByRole('button', { name: 'Start' }).click();
  await expect(stateBadge(backend, 'Ready')).toBeVisible();
  const backendTerminal = terminalOf(backend, 'backend');
  await expect(backendTerminal).toContainText(`of project ${projectId} in ${folder}`);
  await expect(backend.getByRole('img', { name: '0 new messages in inbox' })).toBeVisible();

  await typeLine(page, backendTerminal, 'add a health check');
  await expect(stateBadge(backend, 'Busy')).toBeVisible();
  await screenshot(page, 'agents-busy.png');
  await expect(stateBadge(backend, 'Ready')).toBeVisible();
  await expect(backendTerminal).toContainText('Done: add a health check');

  // A second agent: the grid puts them side by side, and its shell tells us the PTY's real size.
  const shell = await addAgent(page, 'shell', '', 'POSIX shell');
  await shell.getByRole('button', { name: 'Start' }).click();
  const shellTerminal = terminalOf(shell, 'shell');
  await expect(stateBadge(shell, 'Ready')).toBeVisible();
  const paneBoxes = [await backend.boundingBox(), await shell.boundingBox()];
  expect(paneBoxes[0]?.y).toBe(paneBoxes[1]?.y);
  const [rowsBefore, colsBefore] = await ptySize(page, shellTerminal, 'before');
  expect(rowsBefore).toBe(await visibleRows(shellTerminal));
  await screenshot(page, 'agents-grid.png');

  await page.setViewportSize({ width: 1100, height: 760 });
  await expect.poll(() => visibleRows(shellTerminal)).toBeLessThan(rowsBefore);
  const [rowsAfter, colsAfter] = await ptySize(page, shellTerminal, 'after');
  expect(rowsAfter).toBe(await visibleRows(shellTerminal));
  expect(colsAfter).toBeLessThan(colsBefore);

  // A flood (400,000 characters) finishes only if the pane acknowledges what it parsed, and the
  // page stays usable meanwhile.
  await typeLine(page, shellTerminal, 'yes | head -n 200000; echo flood-$((6 * 7))');
  await shell.getByRole('button', { name: 'Maximise' }).click();
  await expect(backend).toBeHidden();
  await shell.getByRole('button', { name: 'Restore grid' }).click();
  await expect(backend).toBeVisible();
  await expect(shellTerminal).toContainText('flood-42', { timeout: 30_000 });

  // Maximise from the keyboard while the terminal has focus, then restore with the same keys.
  await page.keyboard.press('Alt+1');
  await page.keyboard.press('Control+Shift+Enter');
  await expect(shell).toBeHidden();
  await expect(backend.getByRole('button', { name: 'Restore grid' })).toBeVisible();
  await page.keyboard.press('Control+Shift+Enter');
  await expect(shell).toBeVisible();

  // Scrollback search.
  await backendTerminal.click();
  await page.keyboard.press('Control+Shift+F');
  const search = backend.getByRole('searchbox', { name: 'Search backend terminal' });
  await search.fill('nothing like this');
  await expect(backend.getByText('No matches')).toBeVisible();
  await search.fill('health');
  await expect(backend.getByText('No matches')).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(search).toBeHidden();

  // Drover restarts: the pane keeps its last screen, says why it ended, and Enter resumes.
  const restartedUrl = await drover.startHost(['--project', folder]);
  await openWorkspace(page, restartedUrl, projectId);
  await expect(stateBadge(backend, 'Exited')).toBeVisible();
  await expect(backend.getByText('stopped when the host stopped', { exact: true })).toBeVisible();
  await expect(backendTerminal).toContainText('Done: add a health check');
  await expect(backendTerminal).toContainText('Session ended when Drover stopped');
  await expect(backend.getByText('Press Enter here to start it again')).toBeVisible();
  await screenshot(page, 'agents-after-restart.png');
  await backendTerminal.click();
  await page.keyboard.press('Enter');
  await expect(backendTerminal).toContainText('resumed conversation');
  await expect(stateBadge(backend, 'Ready')).toBeVisible();
});

test('a pane flooding beside the one typed into pauses while the person types, and shows the flood where it is once they stop', async ({ page, drover }) => {
  const { terminal: floodTerminal } = await startedShellAgent(page, drover, 'flooder', '');
  const typist = await addAgent(page, 'typist', '', SHELL_AGENT_PROFILE.name);
  await typist.getByRole('button', { name: 'Start' }).click();
  await expect(stateBadge(typist, 'Ready')).toBeVisible();
  const typistTerminal = terminalOf(typist, 'typist');
  const lastNumber = async () => Math.max(0, ...[...(await floodTerminal.locator('.xterm-rows').innerText()).matchAll(/^\s*(\d+)\s*$/gm)].map((match) => Number(match[1])));
  await typeLine(page, floodTerminal, 'seq 1 2000000000');
  await expect.poll(lastNumber).toBeGreaterThan(100_000);

  // A key every 100 ms: the flood outruns the turns the other pane gets, so that pane stops. (Read
  // while the keys go in: a machine that stalls a second between two keys lets it run meanwhile.)
  await typistTerminal.click();
  const typing = page.keyboard.type('echo typed-beside-a-flood', { delay: 100 });
  let typed = false;
  void typing.then(() => (typed = true));
  const seen = [await lastNumber()];
  while (!typed) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    seen.push(await lastNumber());
  }
  await typing;
  expect(seen.some((number, i) => i > 0 && number === seen[i - 1])).toBe(true);
  const frozen = seen.at(-1) ?? 0;
  await page.keyboard.press('Enter');
  await expect(typistTerminal.locator('.xterm-rows > div', { hasText: /^typed-beside-a-flood\s*$/ })).toHaveCount(1);
  // A second after the last key it attaches again: the flood shows where it is now, and goes on.
  await expect.poll(lastNumber).toBeGreaterThan(frozen);
  const caughtUp = await lastNumber();
  await expect.poll(lastNumber).toBeGreaterThan(caughtUp);
});

test('keys typed right after Start reach the agent, in order, however long its start takes to reach the page', async ({ page, drover }) => {
  // A loaded page: the start's answer and the session's events come late.
  const start = await holdFromHost(page, { replies: ['startAgent'], events: ['agentSessionChanged'] });
  const { pane, terminal } = await addedAgent(page, drover, 'Typist', '');
  await pane.getByRole('button', { name: 'Start' }).click();
  await expect(pane.getByRole('status').filter({ hasText: 'Starting Typist… what you type now is sent to it once it runs.' })).toBeVisible();
  await typeLine(page, terminal, 'for i in 1 2 3; do echo typed-$i; done');
  start.release();
  await expect(stateBadge(pane, 'Ready')).toBeVisible();
  await expect(terminal).toContainText('typed-3');
  await expect(terminal.locator('.xterm-rows > div', { hasText: /^typed-[123]\s*$/ })).toHaveText([/typed-1/, /typed-2/, /typed-3/]);
});

test('keys typed right after Restart go to the new session, not to the old one while it stops', async ({ page, drover }) => {
  const restart = await holdFromHost(page, { replies: ['restartAgent'], events: ['agentSessionChanged'] });
  const { pane, terminal } = await addedAgent(page, drover, 'Typist', '');
  await pane.getByRole('button', { name: 'Start' }).click();
  // The old session marks itself: what it runs says "old".
  await typeLine(page, terminal, 'WHICH=old; echo marked-$WHICH');
  await expect(terminal.locator('.xterm-rows > div', { hasText: /^marked-old\s*$/ })).toHaveCount(1);
  await paneMenuAction(page, 'Typist', 'Restart');
  await expect(pane.getByRole('status').filter({ hasText: 'Starting Typist… what you type now is sent to it once it runs.' })).toBeVisible();
  // A shell ignores SIGTERM: the old session runs on for the stop's grace period while this is typed.
  await typeLine(page, terminal, 'echo ran-in-${WHICH:-new}');
  restart.release();
  await expect(terminal.locator('.xterm-rows > div', { hasText: /^ran-in-new\s*$/ })).toHaveCount(1);
  await expect(terminal).not.toContainText('ran-in-old');
});

test('keys typed for a start whose session ends before it runs are said not to have been sent', async ({ page, drover }) => {
  const start = await holdReplies(page, 'startAgent');
  const quitter = { ...SHELL_AGENT_PROFILE, id: 'quitter', name: 'Quitting shell', args: ['-c', 'exit 3'] };
  const { pane, terminal } = await addedAgent(page, drover, 'Quitter', '', quitter);
  await pane.getByRole('button', { name: 'Start' }).click();
  // The session's events reach the page, the start's answer not yet: it cannot tell the session is the one it asked for.
  await expect(stateBadge(pane, 'Exited')).toBeVisible();
  await typeLine(page, terminal, 'echo never sent');
  start.release();
  await expect(pane.getByRole('alert')).toHaveText('Quitter ended before it was running. What you typed while it was starting was not sent.');
  await expect(pane.getByText('Press Enter here to start it again')).toBeVisible();
});

test('manages profiles in the UI and explains an agent whose command is missing', async ({ page, drover }) => {
  const folder = drover.makeFolder('docs-site');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, []);
  await openWorkspace(page, url, projectId);

  await page.getByRole('button', { name: 'Profiles' }).click();
  const profiles = page.getByRole('dialog', { name: 'Agent profiles' });
  await expect(profiles.getByRole('listitem').filter({ hasText: 'Claude Code' })).toBeVisible();
  await profiles.getByRole('button', { name: 'New profile' }).click();
  const form = page.getByRole('dialog', { name: 'New profile' });
  await form.getByLabel('Id').fill('ghost');
  await form.getByLabel('Name', { exact: true }).fill('Ghost CLI');
  await form.getByLabel('Command').fill('no-such-agent-cli');
  await form.getByLabel('Busy pattern').fill('(');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByText('Not a regular expression: ')).toBeVisible();
  await form.getByLabel('Busy pattern').fill('working');
  await form.getByRole('button', { name: 'Save profile' }).click();
  const ghostRow = profiles.getByRole('listitem').filter({ hasText: 'Ghost CLI' });
  await expect(ghostRow).toContainText('no-such-agent-cli is not installed');
  await screenshot(page, 'agents-profiles.png');
  await profiles.getByRole('button', { name: 'Close' }).click();

  const ghost = await addAgent(page, 'scout', 'Reads the docs', 'Ghost CLI (unavailable)');
  await expect(ghost.getByRole('alert')).toContainText('no-such-agent-cli is not installed');
  await expect(ghost.getByRole('group', { name: 'scout terminal' })).toHaveCount(0);

  await paneMenuAction(page, 'scout', 'Edit agent…');
  const edit = page.getByRole('dialog', { name: 'Edit scout' });
  await edit.getByLabel('Name').fill('reader');
  await edit.getByRole('button', { name: 'Save' }).click();
  const reader = page.getByRole('region', { name: 'reader', exact: true });
  await expect(reader).toBeVisible();

  await paneMenuAction(page, 'reader', 'Remove agent…');
  await page.getByRole('alertdialog', { name: 'Remove reader?' }).getByRole('button', { name: 'Remove agent' }).click();
  await expect(reader).toHaveCount(0);
  await expect(page.getByText('No agents yet')).toBeVisible();
});

test('notes quietly in the pane header a CLI newer than the newest tested, and runs it all the same', async ({ page, drover }) => {
  const folder = drover.makeFolder('versions');
  const url = await drover.startHost(['--project', folder]);
  // A `claude` that says it is 9.9.9 and is otherwise the fake agent.
  const bin = drover.makeFolder('newer-claude');
  const claude = path.join(bin, 'claude');
  fs.writeFileSync(claude, `#!/bin/sh\nif [ "$1" = "--version" ]; then echo "9.9.9 (Claude Code)"; exit 0; fi\nexec "${FAKE_PROFILE.command}" ${FAKE_PROFILE.args.map((arg) => `"${arg}"`).join(' ')} "$@"\n`, { mode: 0o755 });
  const projectId = await saveProfiles(drover, folder, [{ ...FAKE_PROFILE, id: 'newer-claude', name: 'Newer Claude', command: claude, args: [] }]);
  await openWorkspace(page, url, projectId);
  const pane = await addAgent(page, 'reviewer', '', 'Newer Claude');
  await pane.getByRole('button', { name: 'Start' }).click();
  await expect(stateBadge(pane, 'Ready')).toBeVisible();
  const note = pane.getByLabel(/This CLI is version 9\.9\.9, newer than the newest Drover was tested with \(2\.1\.\d+\)/);
  await expect(note).toHaveText('9.9.9 untested');
  await screenshot(page, 'agents-untested-cli.png');
  await page.setViewportSize({ width: 390, height: 800 });
  await expect(note).toBeVisible();
  await screenshot(page, 'agents-untested-cli-phone.png');
});

test('the Add agent dialog keeps the profile of the last agent added when a CLI appears on PATH, and says why when it cannot', async ({ page, drover }) => {
  const folder = drover.makeFolder('profiles-kept');
  const bin = drover.makeFolder('bin');
  const url = await drover.startHost(['--project', folder], { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` });
  const ghostCommand = path.join(bin, 'ghost-cli');
  fs.writeFileSync(ghostCommand, '#!/bin/sh\n', { mode: 0o755 });
  const ghostProfile = { ...SHELL_AGENT_PROFILE, id: 'ghost', name: 'Ghost CLI', command: ghostCommand };
  const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE, ghostProfile]);
  await openWorkspace(page, url, projectId);
  await addAgent(page, 'first', '', 'POSIX shell');

  fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\n', { mode: 0o755 });
  await page.getByRole('button', { name: 'Add agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add agent' });
  const profile = dialog.getByLabel('Profile');
  await expect(profile.locator('option', { hasText: 'Claude Code' })).toHaveText('Claude Code');
  await expect(profile).toHaveValue('sh');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await addAgent(page, 'second', '', 'Ghost CLI');
  fs.rmSync(ghostCommand);
  await page.getByRole('button', { name: 'Add agent' }).click();
  await expect(profile).toHaveValue('claude');
  await expect(profile).toHaveAccessibleDescription(
    `second, the last agent added here, uses Ghost CLI, which cannot start: ${ghostCommand} is not installed or not on PATH (${bin}:${process.env.PATH ?? ''}). Claude Code is chosen instead.`,
  );
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await withSocket(drover, (rpc) => rpc.call('deleteAgentProfile', { profileId: 'ghost' }));
  await page.getByRole('button', { name: 'Add agent' }).click();
  await expect(profile).toHaveValue('claude');
  await expect(profile).toHaveAccessibleDescription('second, the last agent added here, uses the profile ghost, which was deleted. Claude Code is chosen instead.');
});
