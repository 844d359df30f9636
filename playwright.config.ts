import { defineConfig } from '@playwright/test';
import type { PageCarrier } from './e2e/support/droverHost';

/** Chromium from Debian, never a downloaded browser; the flags keep it off the (closed) network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig<{ carrier: PageCarrier }>({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Each worker runs its own hosts and Chromium in temp folders: two keep both cores busy.
  workers: 2,
  fullyParallel: false,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    viewport: { width: 1400, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'browser' },
    {
      // The desktop window's carrier, which no Electron runs here to exercise: a few specs run
      // through a stand-in for its preload and main (e2e/support/preloadStandIn.ts).
      name: 'window',
      testMatch: ['projects.spec.ts', 'lastingHost.spec.ts', 'machines.spec.ts'],
      grep: /adds a project by path|a host killed while serve|runs a Shell agent in its own worktree/,
      use: { carrier: 'preload' },
    },
  ],
});
