import { describe, expect, it } from 'vitest';
import { SnapshotGate } from './snapshotGate';

const event = (seq: number) => ({ seq });

describe('SnapshotGate', () => {
  it('drops events until a snapshot has landed', () => {
    const gate = new SnapshotGate<{ seq: number }>();
    expect(gate.admit(event(1))).toBe(false);
  });

  it('applies only events newer than the snapshot, in whatever order they arrive', () => {
    const gate = new SnapshotGate<{ seq: number }>();
    const ticket = gate.beginSnapshot();
    expect(gate.completeSnapshot(ticket, 5)).toEqual([]);
    expect(gate.admit(event(5))).toBe(false);
    expect(gate.admit(event(7))).toBe(true);
    expect(gate.admit(event(6))).toBe(true);
  });

  it('buffers events while the snapshot is in flight and releases the newer ones', () => {
    const gate = new SnapshotGate<{ seq: number }>();
    const ticket = gate.beginSnapshot();
    expect(gate.admit(event(3))).toBe(false);
    expect(gate.admit(event(4))).toBe(false);
    expect(gate.completeSnapshot(ticket, 3)).toEqual([event(4)]);
    expect(gate.admit(event(3))).toBe(false);
  });

  it('ignores a snapshot overtaken by a newer request', () => {
    const gate = new SnapshotGate<{ seq: number }>();
    const first = gate.beginSnapshot();
    const second = gate.beginSnapshot();
    expect(gate.completeSnapshot(first, 1)).toBeNull();
    expect(gate.completeSnapshot(second, 2)).toEqual([]);
  });

  it('keeps the held snapshot when a re-fetch fails', () => {
    const gate = new SnapshotGate<{ seq: number }>();
    gate.completeSnapshot(gate.beginSnapshot(), 2);
    const ticket = gate.beginSnapshot();
    gate.admit(event(2));
    gate.admit(event(3));
    expect(gate.failSnapshot(ticket)).toEqual([event(3)]);
  });
});
