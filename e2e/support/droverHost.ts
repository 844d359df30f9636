import fs from 'node:fs';
import path from 'node:path';
import { test as base } from '@playwright/test';
import { socketPathFor } from '../../electron/wire/paths';
import { endDroverProcessesIn, startServe, type ServeProcess } from '../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { installPreloadStandIn } from './preloadStandIn';

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

/**
 * What carries the page's frames: the browser's WebSocket through serve's door, or the desktop
 * window's preload (stood in for in plain Chromium: preloadStandIn.ts), set per Playwright project.
 */
export type PageCarrier = 'webSocket' | 'preload';

/** A Playwright fixture: each test gets its own data dir and a real `drover serve` process. */
export const test = base.extend<{ drover: DroverWorld; carrier: PageCarrier }>({
  carrier: ['webSocket', { option: true }],
  drover: async ({ carrier, context }, use, testInfo) => {
    const root = makeTempDir('drover-e2e-');
    const dataDir = path.join(root, 'data');
    if (carrier === 'preload') await installPreloadStandIn(context, socketPathFor(dataDir));
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
    try {
      await current?.stop();
    } finally {
      // A serve started before the last one, or a host it brought back, is not `current`.
      await endDroverProcessesIn(root);
      removeDir(root);
    }
  },
});

export { expect } from '@playwright/test';
