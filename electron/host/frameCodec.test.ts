import { describe, expect, it } from 'vitest';
import { MAX_FRAME_DEPTH, MAX_REQUEST_FRAME_BYTES, MAX_SERVER_FRAME_BYTES, type ServerFrame } from '../../shared/protocol';
import { decodeFrame, encodeServerFrame } from './frameCodec';

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

  it('drops a push too large to send, and says so', () => {
    const dropped: string[] = [];
    const push = { t: 'out', chunk: { taskId: 't-aaaaaa', projectId: 'p-aaaaaa', data: 'y'.repeat(MAX_SERVER_FRAME_BYTES) } } as ServerFrame;
    expect(encodeServerFrame(push, (note) => dropped.push(note))).toBeNull();
    expect(dropped).toEqual([expect.stringContaining('out frame')]);
  });
});
