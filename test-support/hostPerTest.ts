import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startHost, type DroverHost } from '../electron/host/host';
import { makeTempDir, removeDir } from './tempDir';

/** A host of version 'test' on a temp dir of its own, fresh for each test of the describe that asked for it. */
export interface HostPerTest {
  /** The test's temp dir: the host's data dir is its data/, its port blocks its ports/. */
  readonly dir: string;
  readonly dataDir: string;
  /** The host the test runs against (the last one `startAnother` started, once it has). */
  readonly host: DroverHost;
  /** Starts a host on the same data dir; once it has started, it is `host`, closed after the test. */
  startAnother(): Promise<DroverHost>;
}

/**
 * Registers the hooks that start the host before each test and, after it, close it and remove the
 * temp dir. Read the fields inside a test: they change from one test to the next.
 */
export function hostPerTest(tempPrefix?: string): HostPerTest {
  let dir: string | undefined;
  let host: DroverHost | undefined;
  const inTest = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('hostPerTest: read its fields inside a test, after its beforeEach');
    return value;
  };
  const fixture: HostPerTest = {
    get dir() {
      return inTest(dir);
    },
    get dataDir() {
      return path.join(inTest(dir), 'data');
    },
    get host() {
      return inTest(host);
    },
    startAnother: async () => {
      host = await startHost({
        dataDir: fixture.dataDir,
        version: 'test',
        // Port blocks of its own: agents in worktrees lease them, and the machine's are not the test's.
        env: { ...process.env, DROVER_PORT_BLOCKS_DIR: path.join(fixture.dir, 'ports') },
      });
      return host;
    },
  };
  beforeEach(async () => {
    dir = makeTempDir(tempPrefix);
    await fixture.startAnother();
  });
  afterEach(async () => {
    await host?.close();
    if (dir) removeDir(dir);
    host = undefined;
    dir = undefined;
  });
  return fixture;
}
