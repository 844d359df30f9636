import fs from 'node:fs';
import path from 'node:path';
import { screenshot } from './support/agents';
import { withSocket } from './support/attention';
import { seriousViolations } from './support/axe';
import { expect, test } from './support/droverHost';
import { openProject } from './support/workState';

test('the Automations dialog adds a schedule through its form, runs it now, pauses it, and shows the host refusing a bad cron field', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await withSocket(drover, async (rpc) => (await rpc.call('findProjectByPath', { path: folder })).id);
  await openProject(page, url, projectId);
  const ranFile = path.join(folder, 'ran.txt');

  await page.getByRole('button', { name: 'Automations', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Automations' });
  await expect(dialog.getByText('No automations yet')).toBeVisible();

  const form = dialog.getByRole('form', { name: 'Add an automation' });
  await form.getByLabel('Name').fill('nightly');
  await expect(form.getByLabel('Trigger')).toHaveValue('schedule');
  // 25 is no hour: the host's parser refuses it, naming the field.
  await form.getByLabel('Cron expression').fill('0 25 * * *');
  await form.getByLabel('Command').fill(`echo ran >> ${ranFile}`);
  await form.getByRole('button', { name: 'Add automation' }).click();
  await expect(form.getByRole('alert')).toContainText('Could not add the automation: The hour field "25" does not parse: 25 is outside 0-23.');
  await expect(dialog.getByRole('article')).toHaveCount(0);

  // A schedule's run has no event fields to fill in: the host refuses one, naming it.
  await form.getByLabel('Cron expression').fill('0 3 * * *');
  await form.getByLabel('Command').fill('echo {issue.title}');
  await form.getByRole('button', { name: 'Add automation' }).click();
  await expect(form.getByRole('alert')).toContainText('The command names {issue.title}, which a schedule trigger does not have');

  await form.getByLabel('Command').fill(`echo ran >> ${ranFile}`);
  await form.getByRole('button', { name: 'Add automation' }).click();
  const row = dialog.getByRole('article', { name: 'nightly' });
  await expect(row).toContainText('cron 0 3 * * *');
  await expect(row).toContainText(`task: echo ran >> ${ranFile}`);
  await expect(row).toContainText('Enabled');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(form.getByLabel('Name')).toHaveValue('');
  const [stored] = await withSocket(drover, (rpc) => rpc.call('listAutomations', { projectId }));
  expect(stored).toMatchObject({ name: 'nightly', trigger: { kind: 'schedule', cron: '0 3 * * *' }, action: { kind: 'task', command: `echo ran >> ${ranFile}` } });
  const nextRun = await page.evaluate((at) => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).format(at), stored!.nextRunAt!);
  await expect(row.getByRole('definition').nth(3)).toHaveText(nextRun);
  await expect(row).toContainText('never');

  await row.getByRole('button', { name: 'Run now' }).click();
  const runs = row.getByRole('table', { name: 'Runs of nightly' });
  await expect(runs.getByRole('row').nth(1)).toContainText('run now');
  await expect(row.getByRole('button', { name: 'History' })).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(() => (fs.existsSync(ranFile) ? fs.readFileSync(ranFile, 'utf8') : '')).toBe('ran\n');
  await dialog.getByRole('button', { name: 'Refresh' }).click();
  await expect(row).toContainText(/Last run(succeeded|running), /);

  await row.getByRole('button', { name: 'Pause' }).click();
  await expect(row).toContainText('Paused');
  await expect(row.getByRole('definition').nth(3)).toHaveText('none while paused');
  expect((await withSocket(drover, (rpc) => rpc.call('listAutomations', { projectId })))[0]?.enabled).toBe(false);

  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'automations-dialog.png');

  // Remove asks first; the safe answer has the focus.
  await row.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove the automation nightly?' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(row).toBeHidden();
  expect(await withSocket(drover, (rpc) => rpc.call('listAutomations', { projectId }))).toEqual([]);
});

test('the palette opens the Automations dialog, and its form adds an event rule, by keyboard alone', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await withSocket(drover, async (rpc) => (await rpc.call('findProjectByPath', { path: folder })).id);
  await openProject(page, url, projectId);

  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('Automations');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await expect(palette.getByRole('option', { name: 'Automations…' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Automations' });
  const form = dialog.getByRole('form', { name: 'Add an automation' });
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();

  const tabTo = async (label: string) => {
    for (let presses = 0; presses < 10 && !(await form.getByLabel(label).evaluate((field) => field === document.activeElement)); presses++) await page.keyboard.press('Tab');
    await expect(form.getByLabel(label)).toBeFocused();
  };
  await tabTo('Name');
  await page.keyboard.type('triage');
  await tabTo('Trigger');
  await page.keyboard.press('ArrowDown');
  await expect(form.getByLabel('Trigger')).toHaveValue('task-failed');
  await tabTo('Task label');
  await page.keyboard.type('build');
  await tabTo('Command');
  await page.keyboard.type('echo {task.label} {task.exitCode}');
  await page.keyboard.press('Enter');

  const row = dialog.getByRole('article', { name: 'triage' });
  await expect(row).toContainText('task build failed');
  await expect(row).toContainText('task: echo {task.label} {task.exitCode}');
  await expect(row).toContainText('on its event');
  const [stored] = await withSocket(drover, (rpc) => rpc.call('listAutomations', { projectId }));
  expect(stored?.trigger).toEqual({ kind: 'task-ended', label: 'build', outcome: 'failed' });
});

test('Edit changes a rule in place, by keyboard: a bad cron is refused, a new one moves Next run, and the run it had links to its task’s output', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  fs.mkdirSync(path.join(folder, 'web'));
  const url = await drover.startHost(['--project', folder]);
  const { projectId, added } = await withSocket(drover, async (rpc) => {
    const id = (await rpc.call('findProjectByPath', { path: folder })).id;
    const rule = await rpc.call('addAutomation', { projectId: id, name: 'nightly', trigger: { kind: 'schedule', cron: '0 3 * * *', timeZone: 'UTC' }, action: { kind: 'task', command: 'pwd', cwd: null, owner: null } });
    await rpc.call('runAutomation', { projectId: id, name: 'nightly' });
    return { projectId: id, added: rule };
  });
  await openProject(page, url, projectId);
  const nextRunText = (at: number) => page.evaluate((instant) => new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).format(instant), at);

  await page.getByRole('button', { name: 'Automations', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Automations' });
  const row = dialog.getByRole('article', { name: 'nightly' });
  await expect(row.getByRole('definition').nth(3)).toHaveText(await nextRunText(added.nextRunAt!));

  await row.getByRole('button', { name: 'Edit' }).focus();
  await page.keyboard.press('Enter');
  const form = row.getByRole('form', { name: 'Edit nightly' });
  await expect(form.getByLabel('Trigger')).toBeFocused();
  await expect(form.getByLabel('Cron expression')).toHaveValue('0 3 * * *');
  await expect(form.getByLabel('Command')).toHaveValue('pwd');
  await expect(form.getByLabel('Daily cap')).toHaveValue('48');
  await expect(form.getByLabel('Catch-up window (minutes)')).toHaveValue('60');
  await expect(form).toContainText('in UTC.');

  await form.getByLabel('Cron expression').fill('0 25 * * *');
  await form.getByLabel('Daily cap').fill('lots');
  await form.getByLabel('Daily cap').press('Enter');
  await expect(form.getByRole('alert')).toHaveText('Could not save nightly: Daily cap takes a whole number (not "lots")');
  await form.getByLabel('Daily cap').fill('5');
  await form.getByLabel('Daily cap').press('Enter');
  await expect(form.getByRole('alert')).toHaveText('Could not save nightly: The hour field "25" does not parse: 25 is outside 0-23.');

  await form.getByLabel('Cron expression').fill('15 4 * * *');
  await form.getByLabel('Folder').fill('web');
  await form.getByLabel('Catch-up window (minutes)').fill('10');
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'automations-edit.png');
  await form.getByRole('button', { name: 'Save' }).click();

  await expect(form).toBeHidden();
  await expect(row.getByRole('button', { name: 'Edit' })).toBeFocused();
  await expect(row).toContainText('cron 15 4 * * * (UTC)');
  const [stored] = await withSocket(drover, (rpc) => rpc.call('listAutomations', { projectId }));
  expect(stored).toMatchObject({
    id: added.id,
    trigger: { kind: 'schedule', cron: '15 4 * * *', timeZone: 'UTC' },
    action: { kind: 'task', command: 'pwd', cwd: 'web', owner: null },
    dailyCap: 5,
    catchUpMs: 600_000,
  });
  expect(stored!.nextRunAt).not.toBe(added.nextRunAt);
  await expect(row.getByRole('definition').nth(3)).toHaveText(await nextRunText(stored!.nextRunAt!));

  // The run from before the edit is still its history, and leads to the task it started.
  await row.getByRole('button', { name: 'History' }).click();
  const runs = row.getByRole('table', { name: 'Runs of nightly' });
  await expect(runs.getByRole('row')).toHaveCount(2);
  const taskLink = runs.getByRole('button', { name: 'Output of task nightly' });
  await taskLink.focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('dialog', { name: 'Output: nightly' })).toBeVisible();
});
