import path from 'node:path';
import { connectToDrover } from '../electron/cli/socketClient';
import { QUICK_FAKE_PROFILE, inboxMessage, openInbox, startFromPane, wakeStatus } from './support/agentBridge';
import { agentPane, openWorkspace, saveProfiles, terminalOf } from './support/agents';
import { expect, test } from './support/droverHost';

// The fake agent reports through Claude Code's hooks, so its profile spends the (default) Claude Code account.
const ACCOUNT = 'Claude Code';

test("Pause agents of this account holds every wake of the account's agents, in every project and across a restart, until resumed from Needs you", async ({ page, drover }) => {
  test.setTimeout(120_000);
  const first = drover.makeFolder('shop-web');
  const second = drover.makeFolder('shop-api');
  let url = await drover.startHost(['--project', first]);
  const firstId = await saveProfiles(drover, first, [QUICK_FAKE_PROFILE]);
  const socket = path.join(drover.dataDir, 'drover.sock');
  let client = await connectToDrover(socket);
  try {
    const secondId = (await client.rpc.call('addProject', { path: second })).id;
    for (const [projectId, name] of [[firstId, 'Web'], [secondId, 'Api']] as const) {
      await client.rpc.call('createAgent', { projectId, name, role: '', profileId: QUICK_FAKE_PROFILE.id });
    }

    await openWorkspace(page, url, secondId);
    const api = agentPane(page, 'Api');
    await startFromPane(api);
    await openWorkspace(page, url, firstId);
    const web = agentPane(page, 'Web');
    await startFromPane(web);

    // Paused from one agent's inbox: both agents of the account, in both projects, wait.
    let inbox = await openInbox(page, web, 'Web');
    await inbox.getByRole('button', { name: `Pause all ${ACCOUNT} agents` }).click();
    await expect(wakeStatus(inbox)).toContainText(`${ACCOUNT} paused`);
    await page.keyboard.press('Escape');
    await expect(web.getByRole('note', { name: new RegExp(`^${ACCOUNT} is paused`) })).toBeVisible();
    for (const [projectId, to] of [[firstId, 'Web'], [secondId, 'Api']] as const) {
      await client.rpc.call('sendMessage', { projectId, to, body: `hello ${to}, while paused` });
    }
    inbox = await openInbox(page, web, 'Web');
    await expect(inboxMessage(inbox, 'Note from You')).toContainText('Waiting for wake');
    await expect(wakeStatus(inbox)).toContainText(`1 message waits until you resume ${ACCOUNT} or press Wake now.`);
    await page.keyboard.press('Escape');

    // A restart keeps the pause: the host's next boot wakes neither.
    client.close();
    url = await drover.startHost(['--project', first]);
    client = await connectToDrover(socket);
    await openWorkspace(page, url, secondId);
    await startFromPane(api);
    await expect(api.getByRole('note', { name: new RegExp(`^${ACCOUNT} is paused`) })).toBeVisible();
    const needsYou = page.getByRole('button', { name: /^Needs you / });
    await expect(needsYou).toHaveAccessibleName('Needs you 1 item');
    await needsYou.click();
    const panel = page.getByRole('dialog', { name: 'Needs you' });
    const paused = panel.getByRole('list', { name: 'Paused accounts' }).getByRole('listitem', { name: `${ACCOUNT}: paused` });
    await expect(paused).toContainText('Drover wakes none of its agents');
    expect((await client.rpc.call('getWorkState', { projectId: secondId })).wakes.map((wake) => wake.state)).toEqual(['waiting']);
    await expect(terminalOf(api, 'Api')).not.toContainText('hello Api');

    await paused.getByRole('button', { name: `Resume ${ACCOUNT}` }).click();
    await expect(panel.getByRole('list', { name: 'Paused accounts' })).toHaveCount(0);
    await expect(needsYou).toHaveAccessibleName('Needs you 0 items');
    await page.keyboard.press('Escape');
    await expect(terminalOf(api, 'Api')).toContainText('[Drover] New message: Note from a person: hello Api, while paused');
    await expect(api.getByRole('note', { name: new RegExp(`^${ACCOUNT} is paused`) })).toHaveCount(0);
    await openWorkspace(page, url, firstId);
    await startFromPane(web);
    await expect(terminalOf(web, 'Web')).toContainText('[Drover] New message: Note from a person: hello Web, while paused');
  } finally {
    client.close();
  }
});
