import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { PortBlocks } from './portBlocks';

describe('PortBlocks', () => {
  let dir: string;
  const folder = (name: string) => {
    const made = path.join(dir, name);
    fs.mkdirSync(made, { recursive: true });
    return made;
  };
  const holder = (name: string) => ({ folder: folder(name), projectId: 'p-aaaaaa', agentId: `a-${name}00000` });
  // A range of its own per run, away from other tests' ports.
  const range = { first: 41_000 + (process.pid % 400) * 10, blocks: 3 };

  beforeEach(() => {
    dir = makeTempDir('drover-ports-');
  });
  afterEach(() => removeDir(dir));

  it('never gives one block to two live worktrees, even through two Drovers sharing the lease folder', async () => {
    const leases = path.join(dir, 'leases');
    const first = new PortBlocks(leases, range);
    const second = new PortBlocks(leases, range);
    const [a, b] = await Promise.all([first.claim(holder('a')), second.claim(holder('b'))]);
    expect(a).not.toBe(b);
    expect([a, b].sort()).toEqual([range.first, range.first + 10]);
    const c = await first.claim(holder('c'));
    expect(c).toBe(range.first + 20);
    await expect(second.claim(holder('d'))).rejects.toThrow(/No block of 10 free ports is left/);
  });

  it('gives a block back on release, and takes over the lease of a worktree whose folder is gone', async () => {
    const blocks = new PortBlocks(path.join(dir, 'leases'), range);
    const a = holder('a');
    const base = await blocks.claim(a);
    blocks.release(base, '/not/the/holder');
    expect(await blocks.claim(holder('b'))).toBe(base + 10);
    blocks.release(base, a.folder);
    expect(await blocks.claim(holder('c'))).toBe(base);
    removeDir(path.join(dir, 'b'));
    expect(await blocks.claim(holder('d'))).toBe(base + 10);
  });

  it('skips a block some other program listens in, and keeps a live holder at boot', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(range.first + 3, '127.0.0.1', resolve));
    try {
      const blocks = new PortBlocks(path.join(dir, 'leases'), range);
      const a = holder('a');
      const base = await blocks.claim(a);
      expect(base).toBe(range.first + 10);
      expect(blocks.keep(base, a)).toBe(true);
      expect(blocks.keep(base, holder('b'))).toBe(false);
      removeDir(path.join(dir, 'leases'));
      expect(blocks.keep(base, a)).toBe(true);
      expect(blocks.keep(base, holder('b'))).toBe(false);
    } finally {
      server.close();
    }
  });
});
