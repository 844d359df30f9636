import { seedFinishedTasks } from '../test-support/seedTasks';
import { expect, test } from './support/droverHost';
import { ARTIFACTS_DIR, openProject, setTaskConcurrency, taskRow } from './support/workState';

const TASKS = 10_000;

test('the panel stays usable with 10,000 tasks in the store', async ({ page, drover }) => {
  const folder = drover.makeFolder('monorepo');
  await drover.startHost(['--project', folder]);
  const projectId = await setTaskConcurrency(drover, folder, 2);
  await drover.host().stop();
  seedFinishedTasks(drover.dataDir, projectId, folder, TASKS);

  const panel = await openProject(page, await drover.startHost(), projectId);
  await expect(panel.getByText(`${TASKS} tasks`)).toBeVisible();
  await expect(taskRow(panel, `job ${TASKS - 1}`)).toBeVisible();
  // Virtualised: only a screenful of rows exists in the page.
  expect(await panel.getByRole('row').count()).toBeLessThan(60);

  const grid = panel.getByRole('grid', { name: 'Tasks' });
  await grid.focus();
  await page.keyboard.press('End');
  await expect(taskRow(panel, 'job 0').first()).toBeVisible();
  await expect(taskRow(panel, 'job 0').first()).toHaveAttribute('aria-selected', 'true');

  await panel.getByRole('radiogroup', { name: 'Show tasks' }).getByText('Failed').click();
  await expect(panel.getByText(`${TASKS / 10} tasks`)).toBeVisible();
  await panel.getByRole('searchbox', { name: 'Search tasks' }).fill('SHARD=9990');
  await expect(panel.getByText('1 task', { exact: true })).toBeVisible();
  await expect(taskRow(panel, 'job 9990')).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS_DIR}/work-state-10k.png` });
});
