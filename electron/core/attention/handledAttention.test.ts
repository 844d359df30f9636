import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HANDLED_AT_ONCE } from '../../../shared/attention';
import type { DroverEvent } from '../../../shared/events';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { createCore, type Core } from '../compose';
import { HANDLED_KEPT } from './handledAttention';

describe('handled Needs you items', () => {
  let dir: string;
  let core: Core;
  let events: DroverEvent[];

  const open = () => {
    core = createCore({ dataDir: path.join(dir, 'data'), version: 'test', socketPath: '/unused' });
    events = [];
    core.events.onEvent((event) => events.push(event));
  };
  const changes = () => events.filter((event) => event.name === 'handledAttentionChanged');

  beforeEach(() => {
    dir = makeTempDir('drover-attention-');
    open();
  });
  afterEach(async () => {
    await core.close();
    removeDir(dir);
  });

  it('keeps them in the project store across a restart, tells every page the whole set, and drops the ended ones', async () => {
    const { id: projectId } = await core.api.addProject({ path: dir });
    const failed = `task-failed:${projectId}:t-aaaaaa`;
    const asking = `needs-input:${projectId}:s-aaaaaa`;
    expect((await core.api.getHandledAttention({ projectId })).keys).toEqual([]);

    const handled = await core.api.updateHandledAttention({ projectId, handled: [failed, asking], ended: [] });
    expect(handled.keys).toEqual([failed, asking]);
    expect(changes()).toEqual([{ name: 'handledAttentionChanged', ...handled }]);
    // Handled again (a second page, a retried call): nothing changes, nobody is told.
    expect(await core.api.updateHandledAttention({ projectId, handled: [asking], ended: [] })).toEqual(handled);
    expect(changes()).toHaveLength(1);

    const ended = await core.api.updateHandledAttention({ projectId, handled: [], ended: [asking] });
    expect(ended.keys).toEqual([failed]);
    expect(ended.seq).toBeGreaterThan(handled.seq);
    expect(changes().at(-1)).toEqual({ name: 'handledAttentionChanged', ...ended });

    await core.close();
    open();
    expect((await core.api.getHandledAttention({ projectId })).keys).toEqual([failed]);
  });

  it("refuses another project's items, in words, and keeps nothing of the call", async () => {
    const { id: projectId } = await core.api.addProject({ path: dir });
    await expect(core.api.updateHandledAttention({ projectId, handled: ['task-failed:p-zzzzzz:t-aaaaaa'], ended: [] })).rejects.toThrow(
      `task-failed:p-zzzzzz:t-aaaaaa is an item of another project than ${projectId}`,
    );
    expect((await core.api.getHandledAttention({ projectId })).keys).toEqual([]);
  });

  it('keeps the newest ones past its bound', async () => {
    const { id: projectId } = await core.api.addProject({ path: dir });
    const key = (n: number) => `task-failed:${projectId}:t-${n}`;
    const keys = Array.from({ length: HANDLED_KEPT + 1 }, (_, n) => key(n));
    for (let start = 0; start < keys.length; start += HANDLED_AT_ONCE) {
      await core.api.updateHandledAttention({ projectId, handled: keys.slice(start, start + HANDLED_AT_ONCE), ended: [] });
    }
    const kept = (await core.api.getHandledAttention({ projectId })).keys;
    expect(kept).toHaveLength(HANDLED_KEPT);
    expect(kept).not.toContain(key(0));
    expect(kept.at(-1)).toBe(key(HANDLED_KEPT));
  });
});
