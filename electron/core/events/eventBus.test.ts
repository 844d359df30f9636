import { describe, expect, it } from 'vitest';
import type { DroverEvent } from '../../../shared/events';
import { EventBus } from './eventBus';

const event = (seq: number): DroverEvent => ({ name: 'projectChanged', seq, projectId: 'p-abc123', project: null });

describe('EventBus', () => {
  it('delivers events caused by a listener after the current one reached every listener', () => {
    const bus = new EventBus();
    const first: number[] = [];
    const second: number[] = [];
    bus.onEvent((e) => {
      first.push(e.seq);
      if (e.seq === 1) bus.emit(event(2));
    });
    bus.onEvent((e) => second.push(e.seq));
    bus.emit(event(1));
    expect(first).toEqual([1, 2]);
    expect(second).toEqual([1, 2]);
  });

  it('keeps delivering when a listener throws, and reports the error', () => {
    const errors: unknown[] = [];
    const bus = new EventBus((error) => errors.push(error));
    const seen: number[] = [];
    bus.onEvent(() => {
      throw new Error('listener broke');
    });
    bus.onEvent((e) => seen.push(e.seq));
    bus.emit(event(1));
    bus.emit(event(2));
    expect(seen).toEqual([1, 2]);
    expect(errors).toHaveLength(2);
  });
});
