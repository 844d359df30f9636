import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/droverHost';
import { openProject, runTask, screenshotPanel, setTaskConcurrency, taskRow } from './support/workState';

function toast(page: Page, status: string, taskName: string): Locator {
  return page.getByRole('status').filter({ hasText: status }).filter({ hasText: taskName });
}

/** Moves the grid's selection with `j`/`k` until the named row is the selected one. */
async function selectRow(page: Page, panel: Locator, name: string): Promise<void> {
  await page.keyboard.press('Home');
  for (let step = 0; step < 50; step++) {
    if ((await taskRow(panel, name).getAttribute('aria-selected')) === 'true') return;
    await page.keyboard.press('j');
  }
  throw new Error(`row ${name} never got selected`);
}

test('queues with concurrency 1, cancels and retries from the keyboard, and toasts every end', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop-api');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await setTaskConcurrency(drover, folder, 1);
  const panel = await openProject(page, url, projectId);

  await runTask(drover, folder, 'echo compiling; sleep 30', 'long build');
  await expect(taskRow(panel, 'long build').getByText('Running')).toBeVisible();
  await runTask(drover, folder, "printf '\\033[31mboom\\033[0m\\n'; exit 3", 'lint');
  await runTask(drover, folder, 'echo docs built', 'docs');

  await expect(taskRow(panel, 'lint').getByText('Queued')).toBeVisible();
  await expect(taskRow(panel, 'docs').getByText('Queued')).toBeVisible();
  await expect(panel.getByRole('img', { name: '2 tasks queued' })).toHaveText('2 queued');
  await expect(panel.getByRole('combobox', { name: 'Run at once' })).toHaveValue('1');
  await screenshotPanel(panel, 'work-state-queued.png');

  // Keyboard only from here: the global shortcut focuses the list.
  await page.keyboard.press('g');
  await page.keyboard.press('w');
  const grid = panel.getByRole('grid', { name: 'Tasks' });
  await expect(grid).toBeFocused();
  await selectRow(page, panel, 'long build');
  await page.keyboard.press('c');
  const confirm = page.getByRole('alertdialog', { name: 'Cancel long build?' });
  await expect(confirm.getByRole('button', { name: 'Keep running' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(confirm).toBeHidden();
  await expect(grid).toBeFocused();

  await expect(taskRow(panel, 'long build').getByText('Cancelled')).toBeVisible();
  await expect(toast(page, 'Cancelled', 'long build')).toBeVisible();
  await expect(toast(page, 'Failed', 'lint')).toBeVisible();
  await expect(toast(page, 'Task done', 'docs')).toBeVisible();
  await expect(taskRow(panel, 'docs').getByText('Task done')).toBeVisible();
  await expect(taskRow(panel, 'docs').getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await expect(panel.getByRole('img', { name: '0 tasks queued' })).toBeVisible();
  await expect(grid).toBeFocused();

  await selectRow(page, panel, 'lint');
  await page.keyboard.press('r');
  const retried = panel.getByRole('row').filter({ hasText: 'lint' }).filter({ hasText: '#2' });
  await expect(retried.getByText('Failed')).toBeVisible();
  await expect(toast(page, 'Failed', 'lint').filter({ hasText: 'Attempt 2' })).toBeVisible();

  // The output keeps its colours and closes back onto the row.
  await expect(retried).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  const output = page.getByRole('dialog', { name: 'Output: lint' });
  await expect(output.locator('.xterm-rows')).toContainText('boom');
  await expect(output.getByText('exit 3', { exact: true })).toBeVisible();
  await expect(output.locator('.xterm-rows span', { hasText: 'boom' }).first()).toHaveClass(/xterm-fg-1/);
  await page.screenshot({ path: 'e2e-artifacts/work-state-output.png' });
  await page.keyboard.press('Escape');
  await expect(output).toBeHidden();
  await expect(grid).toBeFocused();
  await expect(retried).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  for (const description of ['Select the next task', 'Cancel the task', 'Retry a finished task', 'Focus the work state panel']) {
    await expect(sheet).toContainText(description);
  }
  await page.keyboard.press('Escape');
  await expect(grid).toBeFocused();
  await screenshotPanel(panel, 'work-state-ended.png');
});

test('the output cancels, retries and copies its task, by its buttons and by c and r as the list does', async ({ page, context, drover }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const folder = drover.makeFolder('search-service');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await setTaskConcurrency(drover, folder, 1);
  const panel = await openProject(page, url, projectId);

  await runTask(drover, folder, "printf '\\033[32mindexing\\033[0m shard 1\\n'; sleep 60", 'reindex');
  await taskRow(panel, 'reindex').getByText('Running').click();
  const output = page.getByRole('dialog', { name: 'Output: reindex' });
  await expect(output.locator('.xterm-rows')).toContainText('indexing shard 1');
  await expect(output.getByRole('button', { name: 'Retry' })).toHaveCount(0);

  // Focus is in the output's terminal: `c` asks first, as it does in the list.
  await page.keyboard.press('c');
  const confirm = page.getByRole('alertdialog', { name: 'Cancel reindex?' });
  await confirm.getByRole('button', { name: 'Cancel task' }).click();
  await expect(output.getByText('Cancelled')).toBeVisible();
  await expect(output.getByRole('button', { name: 'Cancel' })).toHaveCount(0);

  await output.getByRole('button', { name: 'Copy' }).click();
  await expect(output.getByRole('status')).toHaveText('Copied');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('indexing shard 1');
  expect(copied).not.toContain('\u001b');

  // A retry shows the new attempt's output in its place.
  await page.keyboard.press('r');
  await expect(output.getByText('#2', { exact: true })).toBeVisible();
  await expect(output.getByText('Running')).toBeVisible();
  await expect(output.locator('.xterm-rows')).toContainText('indexing shard 1');
  await output.getByRole('button', { name: 'Cancel' }).click();
  await confirm.getByRole('button', { name: 'Cancel task' }).click();
  await expect(output.getByText('Cancelled')).toBeVisible();
  await output.getByRole('button', { name: 'Retry' }).click();
  await expect(output.getByText('#3', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(output).toBeHidden();
  await expect(taskRow(panel, 'reindex').filter({ hasText: '#3' })).toHaveAttribute('aria-selected', 'true');
});

test('keeps the same state across a reload and shows running tasks interrupted after a host restart', async ({ page, drover }) => {
  const folder = drover.makeFolder('mobile-app');
  let url = await drover.startHost(['--project', folder]);
  const projectId = await setTaskConcurrency(drover, folder, 1);
  let panel = await openProject(page, url, projectId);

  await runTask(drover, folder, 'sleep 60', 'dev server');
  await runTask(drover, folder, 'sleep 60', 'e2e suite');
  await expect(taskRow(panel, 'dev server').getByText('Running')).toBeVisible();
  await expect(taskRow(panel, 'e2e suite').getByText('Queued')).toBeVisible();

  await page.reload();
  await expect(taskRow(panel, 'dev server').getByText('Running')).toBeVisible();
  await expect(taskRow(panel, 'e2e suite').getByText('Queued')).toBeVisible();
  await expect(panel.getByRole('img', { name: '1 task queued' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveCount(0);

  // A graceful restart stops the running task; the new host starts the queued one.
  url = await drover.startHost(['--project', folder]);
  panel = await openProject(page, url, projectId);
  await expect(taskRow(panel, 'dev server').getByText('Interrupted')).toBeVisible();
  await expect(taskRow(panel, 'e2e suite').getByText('Running')).toBeVisible();
  await expect(taskRow(panel, 'dev server').getByRole('button', { name: 'Retry' })).toBeEnabled();
  await expect(page.getByRole('status')).toHaveCount(0);

  // A crash (SIGKILL) leaves the task for boot reconciliation to mark interrupted.
  await drover.host().stop('SIGKILL');
  url = await drover.startHost(['--project', folder]);
  panel = await openProject(page, url, projectId);
  await expect(taskRow(panel, 'e2e suite').getByText('Interrupted')).toBeVisible();
  await expect(panel.getByRole('img', { name: '0 tasks running' })).toBeVisible();
  await screenshotPanel(panel, 'work-state-after-restart.png');

  // Interrupted tasks did not do their work either: the Failed filter shows them.
  await panel.getByRole('radiogroup', { name: 'Show tasks' }).getByText('Failed').click();
  await expect(taskRow(panel, 'dev server').getByText('Interrupted')).toBeVisible();
  await expect(taskRow(panel, 'e2e suite').getByText('Interrupted')).toBeVisible();
  await expect(panel.getByText('2 tasks', { exact: true })).toBeVisible();
});

test('while the page is away from the host, ended tasks keep their state and only waiting or running ones read Unknown', async ({ page, drover }) => {
  const folder = drover.makeFolder('billing');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await setTaskConcurrency(drover, folder, 1);
  const panel = await openProject(page, url, projectId);
  await runTask(drover, folder, 'echo ok', 'compile');
  await runTask(drover, folder, 'exit 4', 'lint');
  await expect(taskRow(panel, 'lint').getByText('Failed')).toBeVisible();
  await runTask(drover, folder, 'sleep 60', 'soak test');
  await runTask(drover, folder, 'sleep 60', 'deploy');
  await expect(taskRow(panel, 'deploy').getByText('Queued')).toBeVisible();
  await taskRow(panel, 'lint').getByText('Failed').click();
  const output = page.getByRole('dialog', { name: 'Output: lint' });
  await expect(output.getByText('exit 4', { exact: true })).toBeVisible();

  await drover.host().stopServe();
  await expect(page.getByRole('alert').filter({ hasText: 'reconnecting' })).toBeVisible();
  await expect(output.getByText('Failed')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(output).toBeHidden();
  await expect(taskRow(panel, 'soak test').getByText('Unknown')).toBeVisible();
  await expect(taskRow(panel, 'deploy').getByText('Unknown')).toBeVisible();
  await expect(taskRow(panel, 'compile').getByText('Task done')).toBeVisible();
  await expect(taskRow(panel, 'lint').getByText('Failed')).toBeVisible();
});

test('a busy project reads calmly: mixed states, agents, a long command, project badges', async ({ page, drover }) => {
  const folder = drover.makeFolder('payments-service');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await setTaskConcurrency(drover, folder, 3);
  const panel = await openProject(page, url, projectId);

  const finished = [
    ['true', 'typecheck'],
    ['exit 2', 'lint'],
    ['echo ok', 'unit tests'],
    ['exit 1', 'migrate db'],
    ['echo ok', undefined],
    ['echo built', 'build docs'],
    ['exit 1', 'e2e: checkout flow'],
    ['true', 'format'],
  ] as const;
  for (const [command, label] of finished) await runTask(drover, folder, command, label);
  await expect(taskRow(panel, 'format').getByText('Task done')).toBeVisible();
  await expect(panel.getByRole('img', { name: '0 tasks running' })).toBeVisible();
  await runTask(drover, folder, 'sleep 60', 'bench');
  await expect(taskRow(panel, 'bench').getByText('Running')).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('w');
  await selectRow(page, panel, 'bench');
  await page.keyboard.press('c');
  await page.getByRole('button', { name: 'Cancel task' }).click();
  await expect(taskRow(panel, 'bench').getByText('Cancelled')).toBeVisible();

  const longCommand =
    'RUST_LOG=debug cargo test --workspace --all-features --release -- --test-threads=1 --nocapture payments::settlement::reconcile_batches';
  await runTask(drover, folder, `sleep 60; ${longCommand}`);
  await runTask(drover, folder, 'sleep 60', 'integration tests');
  await runTask(drover, folder, 'sleep 60', 'load test');
  for (const label of ['deploy preview', 'smoke tests', 'publish sdk']) await runTask(drover, folder, 'sleep 60', label);
  await expect(panel.getByRole('img', { name: '3 tasks queued' })).toBeVisible();
  await expect(panel.getByRole('img', { name: '3 tasks running' })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search tasks' }).fill('test');
  await expect(panel.getByText('5 tasks', { exact: true })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search tasks' }).fill('');
  const filters = panel.getByRole('radiogroup', { name: 'Show tasks' });
  await filters.getByText('Failed').click();
  await expect(panel.getByRole('radio', { name: 'Failed' })).toBeChecked();
  await expect(panel.getByRole('row').filter({ hasText: 'Failed' })).toHaveCount(3);
  await expect(panel.getByText('3 tasks')).toBeVisible();
  await filters.getByText('All').click();

  await screenshotPanel(panel, 'work-state-busy.png');
  await page.screenshot({ path: 'e2e-artifacts/work-state-busy-page.png' });

  await page.goto(`${url}#/`);
  const badges = page.getByRole('listitem').filter({ hasText: 'payments-service' });
  await expect(badges.getByRole('img', { name: '3 running' })).toBeVisible();
  await expect(badges.getByRole('img', { name: '3 queued' })).toBeVisible();
  await page.screenshot({ path: 'e2e-artifacts/projects-with-badges.png' });
});

test('an output whose code cannot be fetched says so in place, the page goes on, and Try again loads it', async ({ page, drover }) => {
  const folder = drover.makeFolder('billing');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await setTaskConcurrency(drover, folder, 1);
  // As while drover serve is away: the output viewer's code, loaded on first use, cannot be fetched.
  const outputCode = '**/assets/TaskOutputDialog-*.js';
  await page.route(outputCode, (route) => route.abort('connectionrefused'));
  const panel = await openProject(page, url, projectId);
  await runTask(drover, folder, 'echo settled', 'invoices');
  await taskRow(panel, 'invoices').getByText('Task done').click();

  const failure = page.getByRole('alert').filter({ hasText: "Could not load the task's output" });
  await expect(failure).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Run task…' })).toBeVisible();
  await expect(taskRow(panel, 'invoices')).toBeVisible();

  await page.unroute(outputCode);
  await failure.getByRole('button', { name: 'Try again' }).click();
  const output = page.getByRole('dialog', { name: 'Output: invoices' });
  await expect(output.locator('.xterm-rows')).toContainText('settled');
  await expect(failure).toHaveCount(0);
});
