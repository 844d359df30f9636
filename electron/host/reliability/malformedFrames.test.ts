import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REQUEST_FRAME_BYTES } from '../../../shared/protocol';
import { startServe, type ServeProcess } from '../../../test-support/droverProcess';
import { rawSocketClient, rawWebSocketClient, type RawClient } from '../../../test-support/rawClients';
import { reportFigures } from '../../../test-support/reliabilityFigures';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { socketPathFor } from '../../wire/paths';

const FRAMES_PER_TRANSPORT = 10_000;
const OVERSIZED_PER_TRANSPORT = 10;

/** A small seeded generator, so a failing run can be replayed exactly. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Transport = 'socket' | 'websocket';
interface Frame {
  kind: string;
  bytes: string | Buffer;
  binary?: boolean;
}

/** The malformed frames of one kind each, in turn: none of them may do anything but get an error. */
function malformedFrame(i: number, next: () => number, transport: Transport, projectId: string): Frame {
  const pick = <T>(options: readonly T[]): T => options[Math.floor(next() * options.length)] as T;
  const garbage = (length: number) => Array.from({ length }, () => String.fromCharCode(32 + Math.floor(next() * 95))).join('');
  switch (i % 9) {
    case 0:
      return { kind: 'invalid JSON', bytes: pick([`{"t":"req","id":${i},${garbage(20)}`, garbage(1 + Math.floor(next() * 200)), `{"t":"req","id":${i}`, '{"a":1}}', "{'t':'req'}"]) };
    case 1:
      return {
        kind: 'wrong types',
        bytes: pick([
          `{"t":"req","id":${i},"method":"createTask","params":{"projectId":42,"command":[]}}`,
          `{"t":"req","id":"${i}","method":"getStatus","params":{}}`,
          `{"t":"req","id":-${i},"method":"getStatus"}`,
          `{"t":"res","id":${i},"ok":true,"result":1}`,
          `{"t":"req","id":${i},"method":"getTask","params":{"taskId":{"$gt":""}}}`,
          `{"t":"req","id":${i},"method":"readTaskOutput","params":{"taskId":"t-aaaaaaaa","maxBytes":1e308}}`,
          `{"t":"req","id":${i},"method":"listTasks","params":{"projectId":"${projectId}","limit":0}}`,
          `[${i}]`,
          'null',
          `"${garbage(10)}"`,
        ]),
      };
    case 2:
      return { kind: 'unknown method', bytes: JSON.stringify({ t: 'req', id: i, method: pick(['nope', '__proto__', 'constructor', 'toString', 'hasOwnProperty', garbage(12)]), params: {} }) };
    case 3: {
      const depth = 65 + Math.floor(next() * 50_000);
      return { kind: 'deep nesting', bytes: next() < 0.5 ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` };
    }
    case 4:
      return {
        kind: 'prototype keys',
        bytes: pick([
          `{"t":"req","id":${i},"method":"getStatus","params":{"__proto__":{"isAdmin":true}}}`,
          `{"__proto__":{"t":"req"},"t":"req","id":${i},"method":"getStatus"}`,
          `{"t":"req","id":${i},"method":"createTask","params":{"projectId":"${projectId}","command":"true","constructor":{"prototype":{"polluted":1}}}}`,
          `{"t":"req","id":${i},"method":"saveAgentProfile","params":{"profile":{"__proto__":{"id":"x"}}}}`,
        ]),
      };
    case 5:
      return transport === 'websocket'
        ? { kind: 'binary', bytes: Buffer.from(garbage(40)), binary: true }
        : { kind: 'binary', bytes: Buffer.concat([Buffer.from(`{"t":"req","id":${i},"method":"createTask","params":{"command":"`), Buffer.from([0xff, 0xc0, 0x80]), Buffer.from('"}}')]) };
    case 6:
      return {
        kind: 'refused command',
        bytes: JSON.stringify({ t: 'req', id: i, method: 'createTask', params: { projectId, command: pick(['echo a\u0000b', 'echo \ud800', 'x'.repeat(100_001)]) } }),
      };
    case 7:
      return { kind: 'missing fields', bytes: pick([`{"t":"req","id":${i}}`, `{"t":"req","method":"getStatus"}`, '{}', `{"id":${i},"method":"getStatus"}`]) };
    default:
      return { kind: 'extra fields', bytes: JSON.stringify({ t: 'req', id: i, method: 'getStatus', params: {}, extra: garbage(8) }) };
  }
}

describe('malformed frames on both doors', () => {
  let dir: string;
  let serve: ServeProcess;
  let projectId: string;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'repo'));
    serve = await startServe(['--data-dir', path.join(dir, 'data'), '--project', path.join(dir, 'repo')]);
    const probe = await rawSocketClient(socketPathFor(path.join(dir, 'data')));
    probe.send(JSON.stringify({ t: 'req', id: 1, method: 'listProjects', params: {} }));
    const listed = await waitFor(() => probe.replies[0], 'the project list');
    projectId = (listed as { result: { projects: { id: string }[] } }).result.projects[0]?.id as string;
    probe.close();
  });
  afterAll(async () => {
    reportFigures('malformed frames', figures);
    await serve.stop();
    removeDir(dir);
  });

  /** A well-behaved client asking in turn while the flood runs; every answer must be right. */
  async function wellBehavedClient(open: () => Promise<RawClient>, until: () => boolean): Promise<number> {
    const client = await open();
    let answered = 0;
    for (let id = 1; !until(); id++) {
      client.send(JSON.stringify(id % 2 ? { t: 'req', id, method: 'getStatus', params: {} } : { t: 'req', id, method: 'getWorkState', params: { projectId } }));
      const reply = await waitFor(() => client.replies.find((frame) => frame.id === id), `good request ${id}`, 30_000);
      expect(reply.ok).toBe(true);
      answered++;
    }
    client.close();
    return answered;
  }

  it.each(['socket', 'websocket'] as const)('over the %s: 10,000 malformed frames each get an error reply, and a good client is served throughout', async (transport) => {
    const open = () => (transport === 'socket' ? rawSocketClient(socketPathFor(path.join(dir, 'data'))) : rawWebSocketClient(serve.url));
    const next = random(transport === 'socket' ? 1 : 2);
    const attacker = await open();
    let done = false;
    const served = wellBehavedClient(open, () => done);
    const kinds = new Map<string, number>();
    const normal = FRAMES_PER_TRANSPORT - OVERSIZED_PER_TRANSPORT;
    for (let i = 0; i < normal; i++) {
      const frame = malformedFrame(i, next, transport, projectId);
      kinds.set(frame.kind, (kinds.get(frame.kind) ?? 0) + 1);
      attacker.send(frame.bytes, { binary: frame.binary ?? false });
      if (i % 500 === 499) await waitFor(() => attacker.replies.length >= i - 1000, 'the host to keep up');
    }
    await waitFor(() => attacker.replies.length === normal, `${normal} error replies`, 60_000);
    expect(attacker.replies.filter((reply) => reply.ok)).toEqual([]);
    attacker.close();

    // Oversized frames: the socket answers and skips each; the WebSocket closes (code 1009) as its protocol says.
    let closedByHost = 0;
    const oversized = `{"t":"req","id":1,"method":"getStatus","params":{"pad":"${'x'.repeat(MAX_REQUEST_FRAME_BYTES)}"}}`;
    for (let i = 0; i < OVERSIZED_PER_TRANSPORT; i++) {
      const client = await open();
      client.send(oversized);
      if (transport === 'socket') {
        const reply = await waitFor(() => client.replies[0], 'the oversized frame refused');
        expect(reply).toMatchObject({ ok: false, error: { message: expect.stringContaining('frame too large') } });
        client.close();
      } else {
        await client.closed;
        closedByHost++;
      }
    }
    kinds.set('oversized', OVERSIZED_PER_TRANSPORT);
    done = true;
    const goodAnswers = await served;
    expect(goodAnswers).toBeGreaterThan(0);
    expect(serve.hostAlive()).toBe(true);
    expect(serve.hostLog()).not.toContain('unexpected error');
    figures[`${transport} frames sent`] = FRAMES_PER_TRANSPORT;
    figures[`${transport} error replies`] = normal + (transport === 'socket' ? OVERSIZED_PER_TRANSPORT : 0);
    figures[`${transport} connections closed for oversized frames`] = closedByHost;
    figures[`${transport} good requests answered meanwhile`] = goodAnswers;
    figures.crashes = serve.hostAlive() ? 0 : 1;
    expect([...kinds.keys()].sort()).toEqual(
      ['binary', 'deep nesting', 'extra fields', 'invalid JSON', 'missing fields', 'oversized', 'prototype keys', 'refused command', 'unknown method', 'wrong types'],
    );
  }, 180_000);

  it('holds 300 unfinished 1 MB lines without stalling others, and frees them when their clients go', async () => {
    const rss = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${serve.hostPid()}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    const before = rss();
    const holders = await Promise.all(Array.from({ length: 300 }, () => rawSocketClient(socketPathFor(path.join(dir, 'data')))));
    const megabyte = Buffer.alloc(1024 * 1024, 'y');
    for (const holder of holders) holder.send(megabyte.subarray(0, megabyte.length - 1));
    const good = await rawSocketClient(socketPathFor(path.join(dir, 'data')));
    good.send(JSON.stringify({ t: 'req', id: 1, method: 'getStatus', params: {} }));
    expect(await waitFor(() => good.replies[0], 'a good client answered while 300 lines hang')).toMatchObject({ ok: true });
    const holding = rss();
    holders.forEach((holder) => holder.close());
    await Promise.all(holders.map((holder) => holder.closed));
    good.send(JSON.stringify({ t: 'req', id: 2, method: 'getStatus', params: {} }));
    await waitFor(() => good.replies[1], 'answered after they left');
    good.close();
    figures['host RSS MB before 300 unfinished lines'] = Math.round(before / 1024 / 1024);
    figures['host RSS MB while they hang'] = Math.round(holding / 1024 / 1024);
    figures['host RSS MB after they left'] = Math.round(rss() / 1024 / 1024);
    expect(serve.hostAlive()).toBe(true);
  }, 120_000);
});
