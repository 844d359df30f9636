import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { createCore } from './compose';

describe('the core', () => {
  let dir: string;

  beforeEach(() => {
    dir = makeTempDir('drover-compose-');
  });
  afterEach(() => {
    removeDir(dir);
  });

  it('releases every subscription to its event bus when it closes', async () => {
    const core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused' });
    await core.api.addProject({ path: dir });
    expect(core.events.listenerCount()).toBeGreaterThan(0);
    await core.close();
    expect(core.events.listenerCount()).toBe(0);
  });
});
