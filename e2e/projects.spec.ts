import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/droverHost';

test('adds a project by path, lists it, and still lists it after a reload', async ({ page, drover }) => {
  const folder = drover.makeFolder('shop-api');
  await page.goto(await drover.startHost());
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();

  await page.getByLabel('Project folder').fill(drover.root + '/does-not-exist');
  await page.getByRole('button', { name: 'Add project' }).click();
  await expect(page.getByRole('alert')).toContainText('No such folder');

  await page.getByLabel('Project folder').fill(folder);
  await page.getByRole('button', { name: 'Add project' }).click();
  await expect(page.getByRole('heading', { name: 'shop-api', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Projects', exact: true }).click();
  const row = page.getByRole('listitem').filter({ hasText: folder });
  await expect(row.getByRole('link', { name: 'shop-api' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('listitem').filter({ hasText: folder })).toBeVisible();

  await page.getByRole('link', { name: 'shop-api' }).click();
  await expect(page.getByRole('heading', { name: 'shop-api', level: 1 })).toBeVisible();
  await page.screenshot({ path: 'e2e-artifacts/project-page.png' });
});

test('a project added with --project at start is listed', async ({ page, drover }) => {
  const folder = drover.makeFolder('mobile-app');
  await page.goto(await drover.startHost(['--project', folder]));
  await expect(page.getByRole('link', { name: 'mobile-app' })).toBeVisible();
  await page.screenshot({ path: 'e2e-artifacts/projects.png' });
});

test('a project whose work state went missing says so and lets the person start it empty', async ({ page, drover }) => {
  const folder = drover.makeFolder('lost-state');
  await page.goto(await drover.startHost(['--project', folder]));
  await page.getByRole('link', { name: 'lost-state' }).click();
  await expect(page.getByRole('heading', { name: 'Work state' })).toBeVisible();
  await drover.host().stop();
  const projectDir = path.join(drover.dataDir, 'projects', fs.readdirSync(path.join(drover.dataDir, 'projects'))[0] as string);
  for (const name of ['state.sqlite', 'state.sqlite-wal', 'state.sqlite-shm']) fs.rmSync(path.join(projectDir, name), { force: true });

  await page.goto(await drover.startHost());
  await page.getByRole('link', { name: 'lost-state' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'is missing' });
  await expect(alert).toContainText('Drover did not recreate it');
  expect(fs.existsSync(path.join(projectDir, 'state.sqlite'))).toBe(false);
  await page.screenshot({ path: 'e2e-artifacts/missing-work-state.png' });

  await alert.getByRole('button', { name: 'Start empty…' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Start this project empty?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Start empty' }).click();
  await expect(page.getByText('No background tasks yet.')).toBeVisible();
  expect(fs.existsSync(path.join(projectDir, 'state.sqlite'))).toBe(true);
});

test('adding a project goes to it whether its folder is new or already added, and its git note goes when it is removed', async ({ page, drover }) => {
  const folder = drover.makeFolder('plain');
  await page.goto(await drover.startHost());
  const gitNote = `Added plain. ${folder} is not in a git repository: its agents work in the folder itself (no worktree of their own).`;

  await page.getByLabel('Project folder').fill(folder);
  await page.getByRole('button', { name: 'Add project' }).click();
  await expect(page.getByRole('heading', { name: 'plain', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Added plain.' })).toHaveText(gitNote);

  await page.getByRole('link', { name: 'Projects', exact: true }).click();
  await page.getByLabel('Project folder').fill(folder);
  await page.getByRole('button', { name: 'Add project' }).click();
  await expect(page.getByRole('heading', { name: 'plain', level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'already added' })).toHaveText(`${folder} was already added: this is its project.`);

  await page.getByRole('link', { name: 'Projects', exact: true }).click();
  const row = page.getByRole('listitem').filter({ hasText: folder });
  await row.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('alertdialog', { name: 'Remove plain from Drover?' }).getByRole('button', { name: 'Remove project' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText(gitNote)).toHaveCount(0);
});
