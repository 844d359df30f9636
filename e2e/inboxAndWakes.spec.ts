import { openInbox, wakeStatus } from './support/agentBridge';
import { startedShellAgent } from './support/agents';
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
});
