import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PROTOCOL_VERSION } from '../shared/host';
import { REPO_ROOT } from '../test-support/buildOnce';
import { runCli } from '../test-support/droverProcess';
import { CAN_RUN_SSHD, SSHD_REQUIREMENT, startSshRemote, type SshRemote } from '../test-support/sshServer';
import { addAgent, numbered, oneToN, screenshot, searchCount, stateBadge, terminalOf, typeLine } from './support/agents';
import { needsYouButton, raisedNotifications, recordNotifications } from './support/attention';
import { taskRow } from './support/workState';
import { expect, test } from './support/droverHost';

const DROVER_VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** Stands in for a host of an older Drover, which this checkout cannot build. */
const OLDER_HOST = path.join(REPO_ROOT, 'test-support', 'fixtures', 'older-host.mjs');

/** The ssh clients of this machine's bridges (the remote's own `host connect` processes are not ssh). */
function killSshBridges(): void {
  execFileSync('pkill', ['-KILL', '-f', '^ssh .*host connect']);
}

/** The remote refuses every new login until the returned function lets them in again. */
function refuseLogins(remote: SshRemote): () => void {
  const keys = path.join(remote.home, '.ssh', 'authorized_keys');
  fs.renameSync(keys, `${keys}.off`);
  return () => fs.renameSync(`${keys}.off`, keys);
}

test.describe('another machine over the real OpenSSH', () => {
  test.skip(!CAN_RUN_SSHD, SSHD_REQUIREMENT);
  let remote: SshRemote;
  /** A git repository on the remote, owned by its user. */
  let app: string;
  /** The env of this machine's Drover: its ssh has the remote's config. */
  let env: NodeJS.ProcessEnv;
  test.beforeEach(async () => {
    remote = await startSshRemote();
    remote.ssh('git init -q app && cd app && git -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m start');
    app = path.join(remote.home, 'app');
    env = { ...process.env, DROVER_SSH_COMMAND: remote.sshCommand };
  });
  test.afterEach(async () => {
    await remote?.stop();
  });

  test('a machine added in the UI runs a Shell agent in its own worktree and a task that wakes it, through a cut connection', async ({ page, drover, carrier }) => {
    test.setTimeout(240_000);
    const url = await drover.startHost([], env);
    await page.goto(url);

    const machines = page.getByRole('region', { name: /Other machines/ });
    await machines.getByLabel('Machine name').fill('box');
    await machines.getByLabel('SSH destination').fill(remote.alias);
    await machines.getByRole('button', { name: 'Add machine' }).click();
    await expect(machines.getByRole('status')).toHaveText(/^Added box: Drover \d+\.\d+\.\d+ installed there\.$/, { timeout: 60_000 });
    await screenshot(page, 'machines-added.png');
    // A page that loads lists its machines once it is connected.
    await page.reload();
    await expect(machines.getByRole('link', { name: 'box' })).toBeVisible();
    await expect(machines.getByText('Could not list machines')).toHaveCount(0);

    await machines.getByRole('link', { name: 'box' }).click();
    await expect(page.getByRole('heading', { name: 'Projects on box' })).toBeVisible();
    await expect(page.getByText('on box', { exact: true })).toBeVisible();
    await page.getByLabel('Project folder').fill(app);
    await page.getByRole('button', { name: 'Add project' }).click();
    await expect(page.getByRole('heading', { name: 'app', level: 1 })).toBeVisible();

    const pane = await addAgent(page, 'Builder', 'Builds', 'Shell');
    await pane.getByRole('button', { name: 'Start' }).click();
    await expect(stateBadge(pane, 'Ready')).toBeVisible({ timeout: 30_000 });
    const terminal = terminalOf(pane, 'Builder');
    // Its own worktree, on the remote: the shell there says where it is.
    await terminal.click();
    await page.keyboard.type('pwd; id -un\n');
    await expect(terminal).toContainText(`${remote.home}/`);
    await expect(terminal).toContainText(remote.user);
    await expect(pane.getByText('on box', { exact: true })).toBeVisible();

    const cli = (...args: string[]) => runCli(['--data-dir', drover.dataDir, '--machine', 'box', ...args], { env });
    // The agent hands the task to Drover with the drover command of its own machine.
    const taskGate = path.join(remote.home, 'task.gate');
    await typeLine(page, terminal, `drover task run --label 'remote build' -- sh -c 'i=0; until [ -e ${taskGate} ]; do i=$((i+1)); echo step $i; sleep 0.2; done; echo build finished'`);
    const grid = page.getByRole('grid', { name: 'Tasks' });
    await expect(taskRow(grid, 'remote build').getByText('Running')).toBeVisible();
    await expect(taskRow(grid, 'remote build').getByText('on box', { exact: true })).toBeVisible();
    const listed = await cli('task', 'list', '--project', app, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const [task] = JSON.parse(listed.stdout) as { id: string; ownerAgentId: string | null }[];
    expect(task?.ownerAgentId).toBeTruthy();
    const taskId = task?.id as string;
    // Then it counts on its own screen, through the cut below.
    const stopGate = path.join(remote.home, 'stop.gate');
    const ticks = path.join(remote.home, 'ticks');
    await typeLine(page, terminal, `i=0; until [ -e ${stopGate} ]; do i=$((i+1)); printf 'ti%sk %d\\n' c $i; echo $i > ${ticks}; sleep 0.2; done; echo counted $i`);
    await expect(terminal).toContainText('tick 3');

    // ssh goes, and stays away while the machine goes on: its logins are refused for a while.
    const letLoginsIn = refuseLogins(remote);
    killSshBridges();
    await expect(page.getByRole('alert').filter({ hasText: 'box unreachable — reconnecting…' })).toBeVisible();
    await expect(pane.getByRole('status').filter({ hasText: 'box unreachable — reconnecting… The agent goes on there' })).toBeVisible();
    await expect(stateBadge(pane, 'Unknown')).toBeVisible();
    await screenshot(page, 'machines-unreachable.png');
    const ticked = () => Number(fs.readFileSync(ticks, 'utf8'));
    const ticksAtCut = ticked();
    await expect.poll(ticked, { timeout: 30_000 }).toBeGreaterThan(ticksAtCut + 10);
    letLoginsIn();
    await expect(page.getByRole('alert').filter({ hasText: 'box unreachable' })).toBeHidden({ timeout: 60_000 });
    await expect(pane.getByRole('status').filter({ hasText: 'reconnecting' })).toHaveCount(0);

    // The task went on there meanwhile: its output is whole, on the page and through the CLI.
    remote.ssh(`touch ${taskGate}`);
    await expect(taskRow(grid, 'remote build').getByText('Task done')).toBeVisible({ timeout: 30_000 });
    const logs = await cli('task', 'logs', taskId);
    expect(logs.code, logs.stderr).toBe(0);
    const steps = numbered(logs.stdout.split(/\r?\n/), 'step');
    expect(steps.length).toBeGreaterThan(10);
    expect(steps).toEqual(oneToN(steps.length));
    expect(logs.stdout).toContain('build finished');
    // A click opens it; a stray Enter there closes it (Close has the focus), never retries it.
    await taskRow(grid, 'remote build').click();
    const output = page.getByRole('dialog', { name: 'Output: remote build' });
    await expect(output.locator('.xterm-rows')).toContainText('build finished');
    await page.keyboard.press('Enter');
    await expect(output).toBeHidden();

    // The task's end wakes the agent once its counting is done; its screen holds every line it drew while the page was away, once.
    remote.ssh(`touch ${stopGate}`);
    await expect(terminal).toContainText(/counted \d+/);
    const counted = Number(/counted (\d+)/.exec((await terminal.textContent()) ?? '')?.[1]);
    expect(counted).toBeGreaterThan(ticksAtCut + 10);
    await expect(terminal).toContainText(`[Drover] New message: Task ${taskId} "remote build"`, { timeout: 30_000 });
    await expect(terminal).toContainText('succeeded: exit code 0');
    await screenshot(page, 'machines-woken.png');
    // Searched last but one: the search leaves the screen scrolled to what it found.
    expect(await searchCount(page, pane, terminal, 'tick ')).toBe(counted);

    // What goes now is the serve of the page (killed), not box: a browser page says so; a window's
    // line goes to the host's socket, not through serve, and box's news still reaches it.
    await drover.host().stopServe('SIGKILL');
    if (carrier === 'webSocket') {
      await expect(page.getByRole('alert').filter({ hasText: "drover serve, which served this page, stopped — reconnecting… box's agents and tasks go on there" })).toBeVisible();
      await expect(pane.getByRole('status').filter({ hasText: 'drover serve, which served this page, stopped — reconnecting… The agent goes on there' })).toBeVisible();
    } else {
      const late = await cli('task', 'run', '--project', app, '--label', 'after serve', '--', 'true');
      expect(late.code, late.stderr).toBe(0);
      await expect(taskRow(grid, 'after serve')).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
    }
    await drover.startServe([], env);
    await expect(page.getByRole('alert')).toHaveCount(0, { timeout: 60_000 });
    await expect(stateBadge(pane, 'Ready')).toBeVisible();
  });

  test('the Needs you queue, notifications, the palette and the projects page of this machine cover another one', async ({ page, drover }) => {
    test.setTimeout(180_000);
    const url = await drover.startHost([], env);
    const cli = (...args: string[]) => runCli(['--data-dir', drover.dataDir, ...args], { env });
    expect((await cli('machine', 'add', 'box', remote.alias)).code).toBe(0);
    expect((await cli('project', 'add', app, '--machine', 'box')).code).toBe(0);
    await recordNotifications(page);
    await page.goto(url);

    // The projects page groups the projects by machine, each machine saying whether it is reached.
    const box = page.getByRole('region', { name: 'box' });
    await expect(box.getByText('connected', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(box.getByRole('list', { name: 'Projects on box' }).getByRole('link', { name: 'app' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('0 projects · 1 on other machines');
    await expect(needsYouButton(page, 0)).toBeVisible();

    const failed = await cli('task', 'run', '--machine', 'box', '--project', app, '--label', 'remote check', '--', 'sh', '-c', 'echo broken; exit 3');
    expect(failed.code, failed.stderr).toBe(0);
    await expect(needsYouButton(page, 1)).toBeVisible();
    await expect(box.getByRole('img', { name: 'Needs you: 1 item' })).toBeVisible();
    await expect.poll(async () => (await raisedNotifications(page)).map(({ title, body }) => `${title} | ${body}`)).toEqual(['Task failed: remote check | app on box · exit 3']);
    await screenshot(page, 'machines-needs-you.png');

    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('app on box');
    await expect(palette.getByRole('option', { name: 'Go to app on box' })).toBeVisible();
    await expect(palette.getByRole('option', { name: /Go to remote check \(task failed, app on box\)/ })).toBeVisible();
    await page.keyboard.press('Escape');

    // The item names its machine and opens that machine's page on it.
    await needsYouButton(page, 1).click();
    const queue = page.getByRole('dialog', { name: 'Needs you' });
    await expect(queue.getByRole('listitem')).toHaveText([/Task failed.*remote check.*exit 3.*app on box/]);
    await screenshot(page, 'machines-needs-you-queue.png');
    await queue.getByRole('button', { name: /^Task failed remote check/ }).click();
    await expect(page).toHaveURL(/\/machines\/box\/#\/project\/[^?]+$/);
    await expect(page.getByRole('banner').getByText('on box', { exact: true })).toBeVisible();
    const workState = page.getByRole('region', { name: 'Work state' });
    await expect(workState.locator('.machine-chip')).toHaveText('on box');
    const grid = workState.getByRole('grid', { name: 'Tasks' });
    await expect(taskRow(grid, 'remote check')).toHaveAttribute('aria-selected', 'true');
    await expect(taskRow(grid, 'remote check').getByText('on box', { exact: true })).toBeVisible();
    await screenshot(page, 'machines-item-opened.png');

    // What is dismissed there stays dismissed on this machine's page, and the reverse.
    await needsYouButton(page, 1).click();
    await page.getByRole('dialog', { name: 'Needs you' }).getByRole('button', { name: 'Dismiss remote check' }).click();
    await expect(needsYouButton(page, 0)).toBeVisible();
    await page.goto(url);
    await expect(box.getByText('connected', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(needsYouButton(page, 0)).toBeVisible();

    // A machine that refuses the login while the page reconnects says so in ssh's words, and comes back once it lets in again.
    const letLoginsIn = refuseLogins(remote);
    killSshBridges();
    await expect(box.getByText('unreachable — reconnecting', { exact: true })).toBeVisible();
    await expect(box.getByText(/^Cannot connect to remote: it refused the login/)).toBeVisible({ timeout: 30_000 });
    await screenshot(page, 'machines-refused.png');
    letLoginsIn();
    await expect(box.getByText('connected', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(box.getByText(/^Cannot connect to remote/)).toHaveCount(0);

    // Removing the machine asks first and says that nothing there stops; its host goes on.
    await box.getByRole('button', { name: 'Remove' }).click();
    const removal = page.getByRole('alertdialog', { name: 'Remove box from Drover?' });
    await expect(removal).toContainText('Nothing on box stops: its Drover host goes on with its agents and tasks.');
    await screenshot(page, 'machines-remove.png');
    await removal.getByRole('button', { name: 'Remove machine' }).click();
    await expect(box).toHaveCount(0);
    expect((await cli('machine', 'list')).stdout).not.toContain('box');
    expect(remote.ssh(`node .local/share/drover/host-${DROVER_VERSION}/cli.js host status`)).toContain('Drover host: running');
    // A page of it kept from before (a bookmark) says why it cannot be reached.
    await page.goto(url.replace('/?token=', '/machines/box/?token='));
    await expect(page.getByRole('alert').filter({ hasText: 'box unreachable — reconnecting… No machine named box here: it was removed, or never added.' })).toBeVisible();
  });

  test("a machine still running an older Drover's host says so, and restarts it into this version once asked", async ({ page, drover }) => {
    test.setTimeout(120_000);
    const url = await drover.startHost([], env);
    const cli = (...args: string[]) => runCli(['--data-dir', drover.dataDir, ...args], { env });
    expect((await cli('machine', 'add', 'box', remote.alias)).code).toBe(0);
    // The remote's host is of an older Drover, which outlived the one that started it.
    const remoteCli = `node .local/share/drover/host-${DROVER_VERSION}/cli.js`;
    const { socketPath } = JSON.parse(remote.ssh(`${remoteCli} host status --json || true`)) as { socketPath: string };
    fs.copyFileSync(OLDER_HOST, path.join(remote.home, 'older-host.mjs'));
    remote.chownHome();
    const work = { agents: [{ projectId: 'p-aaaaaa', projectName: 'app', agentId: 'a-aaaaaa', name: 'Builder', state: 'busy' }], tasks: [] };
    remote.ssh(`setsid node older-host.mjs ${socketPath} 0.0.9 ${PROTOCOL_VERSION - 1} '${JSON.stringify(work)}' </dev/null >/dev/null 2>&1 &`);
    await expect.poll(() => remote.ssh(`${remoteCli} host status || true`)).toContain('version 0.0.9');

    await page.goto(url);
    const box = page.getByRole('region', { name: 'box' });
    const older = box.getByRole('group', { name: 'The Drover host on box' });
    await expect(box.getByText('another Drover', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(older).toContainText('box runs the host of Drover 0.0.9, which this Drover cannot speak to. It goes on with its work (1 agent and 0 tasks) until it is restarted into this version.');
    await screenshot(page, 'machines-older-host.png');
    await older.getByRole('button', { name: 'Restart its host…' }).click();
    const question = page.getByRole('alertdialog', { name: 'Restart the Drover host on box?' });
    await expect(question).toContainText('It stops 1 agent and 0 tasks there');
    await expect(question.getByRole('listitem')).toHaveText(['agent Builder (app)']);
    await question.getByRole('button', { name: 'Restart the host' }).click();
    await expect(box.getByText('connected', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(older).toHaveCount(0);
    expect(remote.ssh(`${remoteCli} host status`)).toContain(`version ${DROVER_VERSION} (protocol ${PROTOCOL_VERSION})`);
  });
});
