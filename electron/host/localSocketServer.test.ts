import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { hostPerTest } from '../../test-support/hostPerTest';
import { waitFor } from '../../test-support/waitFor';
import { connectToDrover } from '../cli/socketClient';
import type { ResponseFrame } from '../../shared/protocol';

/** A raw connection to the local socket, to send what no well-behaved client would. */
async function rawClient(socketPath: string) {
  const socket = net.connect(socketPath);
  await new Promise((resolve) => socket.once('connect', resolve));
  const replies: ResponseFrame[] = [];
  readline.createInterface({ input: socket }).on('line', (line) => {
    const frame = JSON.parse(line) as ResponseFrame;
    if (frame.t === 'res') replies.push(frame);
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, replies, closed, send: (bytes: string | Buffer) => socket.write(bytes) };
}

describe('local socket', () => {
  const running = hostPerTest();

  it('is private to the owner and answers the contract', async () => {
    expect(fs.statSync(running.host.socketPath).mode & 0o777).toBe(0o600);
    const client = await connectToDrover(running.host.socketPath);
    await expect(client.rpc.call('getStatus', {})).resolves.toMatchObject({ version: 'test', dataDir: running.dataDir });
    client.close();
  });

  it('one host per data dir: a second is refused, even with the socket file gone, and a stale socket is not in the way', async () => {
    await expect(running.startAnother()).rejects.toThrow(/Another Drover host is running on the data dir .* \(pid \d+, Drover test/);
    fs.rmSync(running.host.socketPath);
    await expect(running.startAnother()).rejects.toThrow(/Another Drover host is running/);
    await running.host.close();
    fs.writeFileSync(running.host.socketPath, '');
    await running.startAnother();
    const client = await connectToDrover(running.host.socketPath);
    await expect(client.rpc.call('listProjects', {})).resolves.toMatchObject({ projects: [] });
    client.close();
  });

  it('keeps the data dir locked until the closing host has finished its work', async () => {
    fs.mkdirSync(path.join(running.dir, 'repo'));
    const project = (await running.host.core.api.addProject({ path: path.join(running.dir, 'repo') }));
    const task = await running.host.core.api.createTask({ projectId: project.id, command: "trap '' TERM; echo armed; sleep 30" }) as { id: string; logPath: string };
    await waitFor(() => fs.existsSync(task.logPath) && fs.readFileSync(task.logPath, 'utf8').includes('armed'), 'the task to ignore SIGTERM');
    const closing = running.host.close();
    await expect(running.startAnother()).rejects.toThrow(/Another Drover host is running/);
    await closing;
    await running.startAnother();
  });

  it('tells a client with unread replies that the host stops, after those replies, when it reads again', async () => {
    fs.mkdirSync(path.join(running.dir, 'repo'));
    const project = await running.host.core.api.addProject({ path: path.join(running.dir, 'repo') });
    const socket = net.connect(running.host.socketPath);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.pause();
    // A reply and events of megabytes (six bytes of JSON per control character) left unread, far more than the socket buffers.
    const command = `: '${'\u0001'.repeat(99_000)}'`;
    socket.write(`${JSON.stringify({ t: 'req', id: 1, method: 'createTask', params: { projectId: project.id, command } })}\n`);
    await waitFor(async () => (await running.host.core.api.listTasks({ projectId: project.id })).tasks[0]?.state === 'succeeded', 'the task answered and done');

    const closing = running.host.close();
    // Its door is closed once the socket file is gone: only then does the client read again.
    await waitFor(() => !fs.existsSync(running.host.socketPath), 'the socket closed');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk)).resume();
    await new Promise((resolve) => socket.once('close', resolve));
    await closing;
    const lines = Buffer.concat(received).toString('utf8').split('\n');
    expect(lines.pop(), 'nothing after the last whole frame').toBe('');
    const frames = lines.map((line) => JSON.parse(line) as { t: string; id?: number });
    expect(frames.filter((frame) => frame.t === 'res').map((frame) => frame.id)).toEqual([1]);
    expect(frames.at(-1)).toEqual({ t: 'host-stopping' });
    await running.startAnother();
  });

  it('reports that Drover is not running when nobody answers', async () => {
    await expect(connectToDrover(path.join(running.dir, 'nobody.sock'))).rejects.toThrow(/Drover is not running/);
  });

  it('answers an oversized line with an error, skips it, and keeps the connection', async () => {
    const raw = await rawClient(running.host.socketPath);
    raw.send(`{"t":"req","id":1,"method":"getStatus","params":{"pad":"${'x'.repeat(9 * 1024 * 1024)}"}}\n`);
    raw.send(`${JSON.stringify({ t: 'req', id: 2, method: 'getStatus', params: {} })}\n`);
    await waitFor(() => raw.replies.length === 2, 'both answered');
    expect(raw.replies[0]).toMatchObject({ id: null, ok: false, error: { code: 'bad-request', message: expect.stringContaining('frame too large') } });
    expect(raw.replies[1]).toMatchObject({ id: 2, ok: true });
    raw.socket.destroy();
  });

  it('refuses a frame of bytes that are not UTF-8, or nested a million levels deep, and serves on', async () => {
    const raw = await rawClient(running.host.socketPath);
    raw.send(Buffer.concat([Buffer.from('{"t":"req","id":1,"method":"getStatus","params":{"x":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}\n')]));
    raw.send(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}\n`);
    raw.send(`${JSON.stringify({ t: 'req', id: 3, method: 'getStatus', params: {} })}\n`);
    await waitFor(() => raw.replies.length === 3, 'three answers');
    expect(raw.replies.map((reply) => (reply.ok ? 'ok' : reply.error.message))).toEqual([
      'Malformed frame: not valid UTF-8 text',
      'Malformed frame: nested more than 64 levels deep',
      'ok',
    ]);
    raw.socket.destroy();
  });

  it('serves a client that sends 50 large requests at once, without cutting it off', async () => {
    fs.mkdirSync(path.join(running.dir, 'repo'));
    const project = await running.host.core.api.addProject({ path: path.join(running.dir, 'repo') });
    // One slot, taken: the 50 stay queued, so this measures the door, not the PTYs.
    await running.host.core.api.updateProjectSettings({ projectId: project.id, settings: { taskConcurrency: 1 } });
    await running.host.core.api.createTask({ projectId: project.id, command: 'sleep 30' });
    const client = await connectToDrover(running.host.socketPath);
    // Control characters: each is six bytes of JSON in the reply and in the event every client gets.
    const command = `: '${'\u0001'.repeat(99_000)}'`;
    const created = await Promise.all(Array.from({ length: 50 }, () => client.rpc.call('createTask', { projectId: project.id, command })));
    expect(created).toHaveLength(50);
    await expect(client.rpc.call('getStatus', {})).resolves.toMatchObject({ version: 'test' });
    client.close();
  });

  it('streams task output as binary records between the JSON replies, every byte intact', async () => {
    fs.mkdirSync(path.join(running.dir, 'repo'));
    const project = await running.host.core.api.addProject({ path: path.join(running.dir, 'repo') });
    const pushed: Buffer[] = [];
    const client = await connectToDrover(running.host.socketPath, {
      onOutput: (chunk) => {
        expect(chunk.data).toBeInstanceOf(Uint8Array);
        pushed.push(Buffer.from(chunk.data));
      },
    });
    // Held until it is watched, so every line is pushed; a newline inside a record must not split it.
    const gate = path.join(running.dir, 'go');
    const task = await client.rpc.call('createTask', {
      projectId: project.id,
      command: `while [ ! -e ${gate} ]; do sleep 0.02; done; i=0; while [ $i -lt 3000 ]; do echo "line $i caf\u00e9 \u{1F600}"; i=$((i+1)); done`,
    });
    await client.rpc.call('watchTaskOutput', { taskId: task.id });
    fs.writeFileSync(gate, '');
    const replies = await Promise.all(Array.from({ length: 200 }, () => client.rpc.call('getTask', { taskId: task.id })));
    expect(replies.every((reply) => reply.id === task.id)).toBe(true);
    const expected = Array.from({ length: 3000 }, (_, i) => `line ${i} caf\u00e9 \u{1F600}\r\n`).join('');
    await waitFor(() => Buffer.concat(pushed).toString('utf8').endsWith('line 2999 caf\u00e9 \u{1F600}\r\n'), 'the last line pushed');
    expect(Buffer.concat(pushed).toString('utf8')).toBe(expected);
    client.close();
  });

  it("serves a window's line to another machine as the browser door does: a machine it does not know ends the line with the reason", async () => {
    const { socket, closed } = await rawClient(running.host.socketPath);
    const lines: string[] = [];
    readline.createInterface({ input: socket }).on('line', (line) => lines.push(line));
    socket.write(`${JSON.stringify({ t: 'machine-line', machine: 'box' })}\n`);
    await closed;
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([{ t: 'machine-gone', reason: 'No machine named box here: it was removed, or never added.' }]);
    // Any other first line is a client's frame, answered as ever.
    const client = await rawClient(running.host.socketPath);
    client.send(`${JSON.stringify({ t: 'machine-line', machine: '../etc' })}\n`);
    await waitFor(() => client.replies.length === 1, 'the reply');
    expect(client.replies[0]).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    client.socket.end();
  });
});
