import { describe, expect, it } from 'vitest';
import { MAX_FRAME_DEPTH, MAX_REQUEST_FRAME_BYTES, MAX_SERVER_FRAME_BYTES, type ServerFrame } from '../../shared/protocol';
import { decodeStreamFrame } from '../../shared/streamFrames';
import { decodeFrame, encodeServerFrame, encodeStreamPush, toStreamFrame } from './frameCodec';

const why = (value: unknown) => (value instanceof Error ? value.message : 'parsed');

describe('decodeFrame', () => {
  it('parses a JSON frame', () => {
    expect(decodeFrame(Buffer.from('{"t":"req","id":1,"method":"getStatus","params":{}}'))).toEqual({ t: 'req', id: 1, method: 'getStatus', params: {} });
  });

  it('refuses a frame nested deeper than the limit before parsing it, but not brackets inside strings', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(why(decodeFrame(Buffer.from(deep)))).toBe(`nested more than ${MAX_FRAME_DEPTH} levels deep`);
    const atLimit = `${'['.repeat(MAX_FRAME_DEPTH)}${']'.repeat(MAX_FRAME_DEPTH)}`;
    expect(why(decodeFrame(Buffer.from(atLimit)))).toBe('parsed');
    expect(decodeFrame(Buffer.from(JSON.stringify({ command: `${'[{'.repeat(500)} \\" [[[` })))).toMatchObject({ command: expect.any(String) });
  });

  it('refuses bytes that are not UTF-8 instead of turning them into U+FFFD', () => {
    const frame = Buffer.concat([Buffer.from('{"command":"echo '), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expect(why(decodeFrame(frame))).toBe('not valid UTF-8 text');
  });

  it('refuses an oversized frame and a frame that is not JSON', () => {
    expect(why(decodeFrame(Buffer.alloc(MAX_REQUEST_FRAME_BYTES + 1, 0x20)))).toMatch(/^frame too large/);
    expect(why(decodeFrame(Buffer.from('{not json')))).toMatch(/^not JSON/);
  });
});

describe('encodeServerFrame', () => {
  it('turns a reply too large to send into an error reply to the same request', () => {
    const dropped: string[] = [];
    const reply: ServerFrame = { t: 'res', id: 7, ok: true, result: 'x'.repeat(MAX_SERVER_FRAME_BYTES) };
    const text = encodeServerFrame(reply, (note) => dropped.push(note));
    expect(JSON.parse(text as string)).toMatchObject({ t: 'res', id: 7, ok: false, error: { code: 'too-large' } });
    expect(dropped).toEqual([expect.stringContaining('request 7')]);
  });

  it('turns a reply V8 cannot serialize (past its longest string) into an error reply', () => {
    const unserializable = { toJSON: () => { throw new RangeError('Invalid string length'); } };
    const text = encodeServerFrame({ t: 'res', id: 3, ok: true, result: unserializable }, () => undefined);
    expect(JSON.parse(text as string)).toMatchObject({ id: 3, ok: false, error: { code: 'too-large', message: expect.stringContaining('Invalid string length') } });
  });

});

describe('encodeStreamPush', () => {
  it('sends terminal text as one binary frame whose bytes are the UTF-8, undecoded and unescaped', () => {
    const data = 'caf\u00e9 \u001b[31mred\u001b[0m \u{1F600}\r\n';
    const frame = encodeStreamPush({ t: 'term', chunk: { agentId: 'a-aaaaaa', projectId: 'p-bbbbbb', at: 123_456_789_012, data } }, () => undefined) as Buffer;
    expect(frame.includes(Buffer.from(data, 'utf8'))).toBe(true);
    const decoded = decodeStreamFrame(frame) as { t: string; chunk: { agentId: string; projectId: string; at: number; data: Uint8Array } };
    expect(decoded.t).toBe('term');
    expect(decoded.chunk.agentId).toBe('a-aaaaaa');
    expect(decoded.chunk.projectId).toBe('p-bbbbbb');
    expect(decoded.chunk.at).toBe(123_456_789_012);
    expect(Buffer.from(decoded.chunk.data).toString('utf8')).toBe(data);
  });

  it('round-trips task output, and the IPC form carries the same bytes', () => {
    const push = { t: 'out' as const, chunk: { taskId: 't-cccccc', projectId: 'p-bbbbbb', data: '\u00fcber\n' } };
    const decoded = decodeStreamFrame(encodeStreamPush(push, () => undefined) as Buffer) as { chunk: { taskId: string; data: Uint8Array } };
    expect(decoded.chunk.taskId).toBe('t-cccccc');
    expect(Buffer.from(decoded.chunk.data).equals(Buffer.from('\u00fcber\n'))).toBe(true);
    const ipc = toStreamFrame(push);
    expect(ipc.chunk.data).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(ipc.chunk.data).toString('utf8')).toBe('\u00fcber\n');
  });

  it('refuses what is not a stream frame', () => {
    expect(decodeStreamFrame(new Uint8Array([]))).toBeNull();
    expect(decodeStreamFrame(new Uint8Array([9, 1, 0x61, 1, 0x62]))).toBeNull();
    expect(decodeStreamFrame(new Uint8Array([1, 40, 0x61]))).toBeNull();
  });

  it('drops a push too large to send, and says so', () => {
    const dropped: string[] = [];
    const push = { t: 'out' as const, chunk: { taskId: 't-aaaaaa', projectId: 'p-aaaaaa', data: 'y'.repeat(MAX_SERVER_FRAME_BYTES) } };
    expect(encodeStreamPush(push, (note) => dropped.push(note))).toBeNull();
    expect(dropped).toEqual([expect.stringContaining('out frame')]);
  });
});
