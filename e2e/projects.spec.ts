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
