import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from './support/droverHost';
import { ARTIFACTS_DIR, openProject, setTaskConcurrency, taskRow } from './support/workState';

const TASKS = 10_000;

/** Fills a stopped host's project store with finished tasks, as months of agent work would. */
function seedFinishedTasks(dataDir: string, projectId: string, folder: string): void {
  const db = new Database(path.join(dataDir, 'projects', projectId, 'state.sqlite'));
  const insert = db.prepare(
    `INSERT INTO tasks (id, label, command, cwd, state, exit_code, attempt, created_at, started_at, ended_at, log_path, seq)
     VALUES (@id, @label, @command, @cwd, @state, @exitCode, 1, @at, @at, @at, @logPath, @seq)`,
  );
  db.transaction(() => {
    for (let i = 0; i < TASKS; i++) {
      const failed = i % 10 === 0;
      const id = `t-seed${String(i).padStart(6, '0')}`;
      insert.run({
        id,
        label: `job ${i}`,
        command: `make test SHARD=${i}`,
        cwd: folder,
        state: failed ? 'failed' : 'succeeded',
        exitCode: failed ? 1 : 0,
        at: 1_700_000_000_000 + i * 1000,
        logPath: path.join(dataDir, `${id}.log`),
        seq: i + 1,
      });
    }
  })();
  db.close();
}

test('the panel stays usable with 10,000 tasks in the store', async ({ page, drover }) => {
  const folder = drover.makeFolder('monorepo');
  await drover.startHost(['--project', folder]);
  const projectId = await setTaskConcurrency(drover, folder, 2);
  await drover.host().stop();
  seedFinishedTasks(drover.dataDir, projectId, folder);

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
