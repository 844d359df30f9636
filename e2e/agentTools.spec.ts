import fs from 'node:fs';
import path from 'node:path';
import { connectToDrover } from '../electron/cli/socketClient';
import { FAKE_PROFILE, openWorkspace, saveProfiles, screenshot } from './support/agents';
import { expect, test } from './support/droverHost';

test("pre-approves Drover's tools for a project only when the person says so, and the next agent start follows", async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [FAKE_PROFILE]);
  await openWorkspace(page, url, projectId);

  const button = page.getByRole('button', { name: 'Agent tools: ask first' });
  await button.click();
  const dialog = page.getByRole('dialog', { name: "Drover's tools for agents" });
  await expect(dialog).toContainText('run_in_background runs any shell command as you');
  const preApprove = dialog.getByRole('checkbox', { name: "Pre-approve every Drover tool for shop's agents" });
  await expect(preApprove).not.toBeChecked();
  await screenshot(page, 'agent-tools-dialog.png');

  // By keyboard: the checkbox takes focus and Space turns it on; it is saved at once.
  await preApprove.focus();
  await page.keyboard.press('Space');
  await expect(preApprove).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Agent tools: pre-approved' })).toBeVisible();

  const client = await connectToDrover(path.join(drover.dataDir, 'drover.sock'));
  try {
    expect((await client.rpc.call('getProjectSettings', { projectId })).preApproveDroverTools).toBe(true);
    // The fake agent stands in for Claude Code: its per-session settings now allow every Drover tool.
    const agent = await client.rpc.call('createAgent', { projectId, name: 'Builder', role: '', profileId: 'fake' });
    await client.rpc.call('startAgent', { agentId: agent.id, resume: false });
    const settingsFile = path.join(drover.dataDir, 'projects', projectId, 'agents', agent.id, 'claude-settings.json');
    expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8')).permissions).toEqual({ allow: ['mcp__drover__*'] });
    await client.rpc.call('stopAgent', { agentId: agent.id });
  } finally {
    client.close();
  }

  await page.setViewportSize({ width: 390, height: 800 });
  await screenshot(page, 'agent-tools-phone-header.png');
  await page.getByRole('button', { name: 'Agent tools: pre-approved' }).click();
  await expect(dialog.getByRole('checkbox', { name: "Pre-approve every Drover tool for shop's agents" })).toBeChecked();
  await screenshot(page, 'agent-tools-dialog-phone.png');
});
