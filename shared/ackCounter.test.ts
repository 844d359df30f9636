import { describe, expect, it } from 'vitest';
import { AckCounter } from './ackCounter';

describe('AckCounter', () => {
  it('acknowledges once a step of bytes has been written, carrying the exact count', () => {
    const acks: number[] = [];
    const counter = new AckCounter((bytes) => acks.push(bytes), 5_000);
    counter.written(3_000);
    expect(acks).toEqual([]);
    counter.written(2_500);
    expect(acks).toEqual([5_500]);
    counter.written(4_999);
    expect(acks).toEqual([5_500]);
    counter.written(1);
    expect(acks).toEqual([5_500, 5_000]);
  });

  it('acknowledges one large chunk at once', () => {
    const acks: number[] = [];
    const counter = new AckCounter((bytes) => acks.push(bytes), 5_000);
    counter.written(64 * 1024);
    expect(acks).toEqual([65_536]);
  });

  it('forgets what was owed to an attachment that is gone', () => {
    const acks: number[] = [];
    const counter = new AckCounter((bytes) => acks.push(bytes), 5_000);
    counter.written(4_000);
    counter.reset();
    counter.written(4_000);
    expect(acks).toEqual([]);
  });
});
