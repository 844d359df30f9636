import type { Locator } from '@playwright/test';
import { expect, test } from './support/droverHost';
import { screenshot } from './support/agents';
import { withSocket } from './support/attention';
import { openProject, setTaskConcurrency, taskRow } from './support/workState';

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Where the matching elements are, all read at one moment (toasts come and go, rows are virtual). */
function boxesOf(locator: Locator): Promise<Box[]> {
  return locator.evaluateAll((elements) =>
    elements.map((element) => element.getBoundingClientRect()).filter((box) => box.width > 0 && box.height > 0).map(({ x, y, width, height }) => ({ x, y, width, height })),
  );
}

test('toasts never cover the work state\'s controls nor the Cancel and Retry buttons of its rows', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await setTaskConcurrency(drover, folder, 8);
  const panel = await openProject(page, url, projectId);

  // Enough rows to fill the panel, over which toasts stack.
  await withSocket(drover, async (rpc) => {
    for (let index = 1; index <= 14; index++) await rpc.call('createTask', { projectId, command: index % 2 ? 'sleep 60' : `exit ${index}`, label: `job ${index}` });
  });
  await expect(taskRow(panel, 'job 14').getByText('Failed')).toBeVisible();
  const toasts = page.getByRole('status').filter({ has: page.getByRole('button', { name: 'View output' }) });
  await expect(toasts.filter({ hasText: 'job 14' })).toBeVisible();
  await screenshot(page, 'toasts-above-work-state.png');

  // The header's Run at once, Run task… and Shortcuts, and the filter bar's choices and search.
  const controls = await boxesOf(panel.locator('.work-state__header :is(button, select), .task-filter-bar :is(label, input)'));
  expect(controls.length).toBeGreaterThan(6);
  const actions = [...controls, ...(await boxesOf(panel.getByRole('row').getByRole('button', { name: /^(Cancel|Retry)$/ })))];
  expect(actions.length).toBeGreaterThan(8);
  for (const toast of await boxesOf(toasts)) {
    for (const action of actions) expect(overlaps(toast, action), `a toast at ${JSON.stringify(toast)} covers a row button at ${JSON.stringify(action)}`).toBe(false);
  }
});
