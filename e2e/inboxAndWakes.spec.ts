import { inboxBadge, inboxMessage, openInbox, wakeStatus } from './support/agentBridge';
import { agentPane, openWorkspace, startedShellAgent, terminalOf } from './support/agents';
import { withSocket } from './support/attention';
import { expect, test } from './support/droverHost';

test.describe('issue 35, item 6: the inbox and its wakes', () => {
  test('Hold wakes shows on the pane until resumed', async ({ page, drover }) => {
    const { pane } = await startedShellAgent(page, drover, 'sheller', '');
    const held = pane.getByRole('note', { name: /^Wakes held/ });
    await expect(held).toHaveCount(0);
    let inbox = await openInbox(page, pane, 'sheller');
    await inbox.getByRole('button', { name: 'Hold wakes' }).click();
    await expect(wakeStatus(inbox)).toContainText('Wakes held');
    await page.keyboard.press('Escape');
    await expect(held).toHaveAccessibleName('Wakes held: Drover types no message into sheller until you resume wakes (its inbox, or the palette).');

    inbox = await openInbox(page, pane, 'sheller');
    await inbox.getByRole('button', { name: 'Resume wakes' }).click();
    await page.keyboard.press('Escape');
    await expect(held).toHaveCount(0);
  });

  test('a Shell agent is offered no Pause all: a shell spends no account, and the host says so when asked', async ({ page, drover }) => {
    const { pane, agentId } = await startedShellAgent(page, drover, 'sheller', '');
    const inbox = await openInbox(page, pane, 'sheller');
    await expect(inbox.getByRole('button', { name: 'Hold wakes' })).toBeVisible();
    await expect(inbox.getByRole('button', { name: /^Pause all/ })).toHaveCount(0);
    await withSocket(drover, async (rpc) => {
      await expect(rpc.call('pauseAgentAccount', { agentId })).rejects.toThrow("POSIX shell is a shell: it spends no account to pause. Hold an agent's wakes in its inbox instead.");
    });
  });

  test('the pane counts the messages new to you, the inbox says the same, and opening it marks them seen (kept by the host) without taking them from the agent', async ({ page, drover }) => {
    const { pane, projectId, agentId, folder } = await startedShellAgent(page, drover, 'sheller', '');
    await withSocket(drover, async (rpc) => {
      const reviewer = await rpc.call('createAgent', { projectId, name: 'reviewer', profileId: 'sh' });
      await rpc.call('holdAgentWakes', { agentId, hold: true });
      await rpc.call('sendMessage', { projectId, to: 'sheller', body: 'first, held', fromAgentId: reviewer.id });
      await rpc.call('holdAgentWakes', { agentId, hold: false });
      await expect.poll(async () => (await rpc.call('listInbox', { agentId, unreadOnly: false })).messages[0]?.state).toBe('delivered');
      await rpc.call('holdAgentWakes', { agentId, hold: true });
      await rpc.call('sendMessage', { projectId, to: 'sheller', body: 'second, held', fromAgentId: reviewer.id });
      // What the person writes is never new to them.
      await rpc.call('sendMessage', { projectId, to: 'sheller', body: 'third, mine' });
    });
    await expect(pane.getByRole('button', { name: 'Inbox, 2 new messages' })).toBeVisible();
    await expect(inboxBadge(pane, 2)).toHaveText('2');

    const inbox = await openInbox(page, pane, 'sheller');
    await expect(inbox.getByText('3 messages, 2 new: 2 waiting for wake, 1 delivered.')).toBeVisible();
    await expect(inboxMessage(inbox, 'Note from reviewer').filter({ hasText: 'first, held' })).toContainText('New');
    await expect(inboxMessage(inbox, 'Note from You').filter({ hasText: 'third, mine' })).not.toContainText('New');
    await expect(inboxBadge(pane, 0)).toBeAttached();
    await page.keyboard.press('Escape');
    await expect(pane.getByRole('button', { name: 'Inbox, 0 new messages' })).toBeVisible();

    // Seeing a message is the person's: the agent's read and its wake are untouched.
    await withSocket(drover, async (rpc) => {
      expect((await rpc.call('listInbox', { agentId, unreadOnly: true })).messages.map((message) => message.body)).toEqual(['first, held', 'second, held', 'third, mine']);
      await rpc.call('holdAgentWakes', { agentId, hold: false });
    });
    await expect(terminalOf(pane, 'sheller')).toContainText('third, mine');

    // The host keeps it: a fresh page after a restart counts nothing new either.
    const url = await drover.startHost(['--project', folder]);
    await openWorkspace(page, url, projectId);
    await expect(agentPane(page, 'sheller').getByRole('button', { name: 'Inbox, 0 new messages' })).toBeVisible();
  });
});
