import { describe, expect, it } from 'vitest';
import { HostStreamReader, recordHeader } from './socketRecords';

function read(stream: Buffer, splitEvery: number, maxFrameBytes = 1024) {
  const seen: string[] = [];
  let oversized = 0;
  const reader = new HostStreamReader(
    maxFrameBytes,
    (line) => seen.push(`line:${line.toString()}`),
    (record) => seen.push(`record:${record.toString('hex')}`),
    () => oversized++,
  );
  for (let i = 0; i < stream.length; i += splitEvery) reader.push(stream.subarray(i, i + splitEvery));
  return { seen, oversized };
}

const record = (payload: Buffer) => Buffer.concat([recordHeader(payload.length), payload]);

describe('HostStreamReader', () => {
  // A record holds newlines and zero bytes; lines and records interleave.
  const payload = Buffer.from([1, 0x0a, 0, 0x0a, 0xff, 0x7b]);
  const stream = Buffer.concat([Buffer.from('{"a":1}\n'), record(payload), Buffer.from('{"b":2}\n'), record(Buffer.alloc(0)), record(payload)]);
  const expected = ['line:{"a":1}', `record:${payload.toString('hex')}`, 'line:{"b":2}', 'record:', `record:${payload.toString('hex')}`];

  it('tells JSON lines from binary records, however the stream is cut', () => {
    for (const splitEvery of [1, 2, 3, 5, 7, stream.length]) expect(read(stream, splitEvery).seen).toEqual(expected);
  });

  it('skips a record larger than the limit without buffering it, and reads on', () => {
    const big = Buffer.concat([record(Buffer.alloc(2000, 0x0a)), Buffer.from('{"after":true}\n')]);
    const { seen, oversized } = read(big, 100);
    expect(oversized).toBe(1);
    expect(seen).toEqual(['line:{"after":true}']);
  });
});
