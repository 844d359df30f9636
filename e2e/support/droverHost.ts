import fs from 'node:fs';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { startServe, type ServeProcess } from '../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../test-support/tempDir';

export interface DroverWorld {
  /** A temp folder holding the data dir and project folders; removed after the test. */
  root: string;
  dataDir: string;
  /** Makes a project folder under root. */
  makeFolder(name: string): string;
  /**
   * Starts (or restarts) `drover serve` on the same data dir and returns its URL with the token;
   * a running serve and its host are stopped first (cleanly), so the new host reconciles.
   */
  startHost(extraArgs?: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /** Starts serve again after it was stopped, leaving the host (and what runs in it) as it is. */
  startServe(extraArgs?: string[], env?: NodeJS.ProcessEnv): Promise<string>;
  /** The running host process (for killing it mid-test). */
  host(): ServeProcess;
}

/** A Playwright fixture: each test gets its own data dir and a real `drover serve` process. */
export const test = base.extend<{ drover: DroverWorld }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
  drover: async ({}, use, testInfo) => {
    const root = makeTempDir('drover-e2e-');
    const dataDir = path.join(root, 'data');
    let current: ServeProcess | undefined;
    const world: DroverWorld = {
      root,
      dataDir,
      makeFolder: (name) => {
        const folder = path.join(root, name);
        fs.mkdirSync(folder, { recursive: true });
        return folder;
      },
      startHost: async (extraArgs = [], env = process.env) => {
        // Stops the host as well as serve (a clean stop), so a new one reconciles, as a restart of Drover does.
        if (current) await current.stop();
        current = await startServe(['--data-dir', dataDir, ...extraArgs], env);
        return current.url;
      },
      startServe: async (extraArgs = [], env = process.env) => {
        current = await startServe(['--data-dir', dataDir, ...extraArgs], env);
        return current.url;
      },
      host: () => {
        if (!current) throw new Error('no host started');
        return current;
      },
    };
    await use(world);
    if (testInfo.status !== testInfo.expectedStatus && current) {
      await testInfo.attach('host.log', { body: current.hostLog(), contentType: 'text/plain' });
      await testInfo.attach('serve.log', { body: current.stderr(), contentType: 'text/plain' });
    }
    await current?.stop();
    removeDir(root);
  },
});

export { expect } from '@playwright/test';
