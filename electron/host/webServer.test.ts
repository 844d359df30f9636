import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DOOR_CLOSE, DoorChallengeSchema, doorKey, doorProof, pageProof } from '../../shared/browserDoor';
import { MACHINE_GONE_CLOSE_CODE } from '../../shared/machines';
import type { ServerFrame } from '../../shared/protocol';
import { decodeStreamFrame } from '../../shared/streamFrames';
import { AckCounter } from '../../shared/ackCounter';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { openDoorSocket, type DoorSocketOptions } from '../../test-support/doorSocket';
import { hmacSha256 } from './doorHandshake';
import { startHost, type DroverHost } from './host';
import { startWebServer, type WebServer } from './webServer';

describe('browser host web server', () => {
  let dir: string;
  let host: DroverHost;
  let web: WebServer;
  const open: WebSocket[] = [];

  /** A client let in through the handshake, as a page is, with every frame the door sent it since. */
  const connect = async (options: DoorSocketOptions = {}, url = web.url) => {
    const frames: ServerFrame[] = [];
    const ws = await openDoorSocket(url, { ...options, onMessage: (data, isBinary) => frames.push((isBinary ? decodeStreamFrame(data as Buffer) : JSON.parse(data.toString())) as ServerFrame) });
    open.push(ws);
    return { ws, frames };
  };
  /** A client that speaks the handshake itself: what the door sends, and how it closed. */
  const rawDoorClient = async (origin?: string) => {
    const ws = new WebSocket(`${new URL(web.url).origin.replace('http', 'ws')}/api`, origin ? { origin } : {});
    open.push(ws);
    const received: unknown[] = [];
    ws.on('message', (data) => received.push(JSON.parse(data.toString())));
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    await new Promise((resolve) => ws.once('open', resolve));
    return { ws, received, closed };
  };
  const reply = (frames: ServerFrame[], id: number | null) =>
    waitFor(() => frames.find((frame) => frame.t === 'res' && frame.id === id), `reply ${id}`);

  beforeEach(async () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'renderer'));
    fs.writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Drover</title>');
    fs.mkdirSync(path.join(dir, 'repo'));
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test' });
    web = await startWebServer(host, { host: '127.0.0.1', port: 0, rendererDir: path.join(dir, 'renderer') });
  });
  afterEach(async () => {
    open.splice(0).forEach((ws) => ws.terminate());
    await web.close(DOOR_CLOSE.hostStopped);
    await host.close();
    removeDir(dir);
  });

  it('serves the page with a CSP and never a file outside the renderer', async () => {
    const page = await fetch(web.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toContain('<title>Drover</title>');
    const escape = await fetch(`${new URL(web.url).origin}/..%2f..%2fdata%2fapp.sqlite`);
    expect([403, 404]).toContain(escape.status);
    expect((await fetch(`${new URL(web.url).origin}/%00`)).status).toBe(403);
    expect((await fetch(`${new URL(web.url).origin}/%E0%A4%A`)).status).toBe(400);
    expect((await fetch(web.url)).status).toBe(200);
  });

  it('sends no referrer, no sniffing and a CSP limiting connections to its own origin on every reply, errors too', async () => {
    const origin = new URL(web.url).origin;
    const upgrade = (target: string, from: string) =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const request = http.request(`${origin}${target}`, {
          headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', Origin: from },
        });
        request.once('response', resolve);
        request.once('error', reject);
        request.end();
      });
    const replies: [string, number, Headers | http.IncomingHttpHeaders][] = [];
    for (const [what, init] of [
      ['/', {}],
      ['/missing.js', {}],
      ['/', { method: 'POST' }],
      ['/%00', {}],
      ['/%E0%A4%A', {}],
    ] as const) {
      const response = await fetch(`${origin}${what}`, init);
      replies.push([`${init.method ?? 'GET'} ${what}`, response.status, response.headers]);
    }
    for (const [target, from] of [
      ['/elsewhere', origin],
      ['/api', 'http://evil.example'],
    ] as const) {
      const response = await upgrade(target, from);
      response.resume();
      replies.push([`upgrade ${target}`, response.statusCode ?? 0, response.headers]);
    }
    expect(replies.map(([what, status]) => `${what} ${status}`)).toEqual([
      'GET / 200',
      'GET /missing.js 404',
      'POST / 405',
      'GET /%00 403',
      'GET /%E0%A4%A 400',
      'upgrade /elsewhere 404',
      'upgrade /api 403',
    ]);
    for (const [what, , headers] of replies) {
      const header = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined));
      expect({ what, referrer: header('referrer-policy'), sniff: header('x-content-type-options') }).toEqual({ what, referrer: 'no-referrer', sniff: 'nosniff' });
      const csp = header('content-security-policy') ?? '';
      expect(csp, what).toContain("default-src 'self'");
      expect(csp.split('; ').find((directive) => directive.startsWith('connect-src')), what).toBe("connect-src 'self'");
    }
  });

  it('lets a page in only once it proved the token, to a door that proved it first, and never asks for the token itself', async () => {
    // The door answers a nonce with a proof anyone can check with the token, and nothing else.
    const { ws, received, closed } = await rawDoorClient();
    const pageNonce = 'a'.repeat(64);
    ws.send(JSON.stringify({ t: 'door-hello', pageNonce }));
    await waitFor(() => received.length === 1, 'the challenge');
    const challenge = DoorChallengeSchema.parse(received[0]);
    const key = doorKey(hmacSha256, web.token, '');
    expect(challenge.doorProof).toBe(doorProof(hmacSha256, key, pageNonce, challenge.doorNonce));
    // A proof made without the token is refused, with a reason, and nothing of the API answered.
    ws.send(JSON.stringify({ t: 'page-proof', pageProof: doorProof(hmacSha256, doorKey(hmacSha256, 'wrong', ''), pageNonce, challenge.doorNonce) }));
    expect(await closed).toEqual(DOOR_CLOSE.refused);
    expect(received).toHaveLength(1);

    // The door's own proof does not pass for the page's, and a request before the handshake is refused.
    const reflected = await rawDoorClient();
    reflected.ws.send(JSON.stringify({ t: 'door-hello', pageNonce }));
    await waitFor(() => reflected.received.length === 1, 'the challenge');
    reflected.ws.send(JSON.stringify({ t: 'page-proof', pageProof: DoorChallengeSchema.parse(reflected.received[0]).doorProof }));
    expect(await reflected.closed).toEqual(DOOR_CLOSE.refused);
    const early = await rawDoorClient();
    early.ws.send(JSON.stringify({ t: 'req', id: 1, method: 'getStatus', params: {} }));
    expect(await early.closed).toEqual(DOOR_CLOSE.refused);
    expect(early.received).toEqual([]);

    // A client holding another token finds the door does not prove it holds the same one.
    await expect(connect({ token: 'wrong' })).rejects.toThrow('the door did not prove it holds the token');
    const { ws: page, frames } = await connect();
    page.send(JSON.stringify({ t: 'req', id: 1, method: 'getStatus', params: {} }));
    expect(await reply(frames, 1)).toMatchObject({ ok: true });
  });

  it("binds a page's proof to its Origin, and refuses a foreign Origin before any handshake", async () => {
    const origin = new URL(web.url).origin;
    await expect(connect({ origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    // Another name or address family of this machine is another user's to bind on this port, and
    // to relay a page opened there to this door: only the address the door is bound to is its own.
    for (const alias of [`http://localhost:${web.port}`, `http://[::1]:${web.port}`]) await expect(connect({ origin: alias })).rejects.toThrow('HTTP 403');
    const { ws } = await connect({ origin });
    expect(ws.readyState).toBe(WebSocket.OPEN);
    // What a page of one origin keeps opens the door for that origin only: here, a client sending none.
    const elsewhere = await rawDoorClient();
    const pageNonce = 'b'.repeat(64);
    elsewhere.ws.send(JSON.stringify({ t: 'door-hello', pageNonce }));
    await waitFor(() => elsewhere.received.length === 1, 'the challenge');
    const { doorNonce, doorProof: proof } = DoorChallengeSchema.parse(elsewhere.received[0]);
    const keptByThePage = doorKey(hmacSha256, web.token, origin);
    expect(proof).not.toBe(doorProof(hmacSha256, keptByThePage, pageNonce, doorNonce));
    elsewhere.ws.send(JSON.stringify({ t: 'page-proof', pageProof: pageProof(hmacSha256, keptByThePage, pageNonce, doorNonce) }));
    expect(await elsewhere.closed).toEqual(DOOR_CLOSE.refused);
  });

  it("starts no line to a machine for a page that has not proved the token, and tells one that has why it cannot reach it", async () => {
    const asked: string[] = [];
    const door = await startWebServer({ ...host, openMachine: async (name) => (asked.push(name), null) }, { host: '127.0.0.1', port: 0, rendererDir: path.join(dir, 'renderer') });
    try {
      const stranger = new WebSocket(`${new URL(door.url).origin.replace('http', 'ws')}/machines/box/api`);
      const strangerClosed = new Promise<number>((resolve) => stranger.once('close', (code) => resolve(code)));
      await new Promise((resolve) => stranger.once('open', resolve));
      stranger.send(JSON.stringify({ t: 'req', id: 0, method: 'hostHello', params: {} }));
      expect(await strangerClosed).toBe(DOOR_CLOSE.refused.code);
      expect(asked).toEqual([]);

      const page = await openDoorSocket(door.url, { path: '/machines/box/api' });
      const closed = await new Promise<{ code: number; reason: string }>((resolve) => page.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
      expect(closed).toEqual({ code: MACHINE_GONE_CLOSE_CODE, reason: 'No machine named box here: it was removed, or never added.' });
      expect(asked).toEqual(['box']);
    } finally {
      await door.close(DOOR_CLOSE.hostStopped);
    }
  });

  it('answers malformed messages with errors and keeps serving every client', async () => {
    const bad = await connect();
    const good = await connect();
    bad.ws.send('{not json');
    bad.ws.send(JSON.stringify({ t: 'req', id: 1, method: 'nope' }));
    bad.ws.send(JSON.stringify({ t: 'req', id: 2, method: 'addProject', params: { path: 42 } }));
    bad.ws.send(JSON.stringify({ t: 'req', id: 3, method: 'getTask', params: { taskId: 't-unknown123' } }));
    bad.ws.send(JSON.stringify({ hello: 'world', id: 4 }));
    expect(await reply(bad.frames, null)).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    expect(await reply(bad.frames, 1)).toMatchObject({ ok: false, error: { code: 'unknown-method' } });
    expect(await reply(bad.frames, 2)).toMatchObject({ ok: false, error: { code: 'bad-request', message: expect.stringContaining('path') } });
    expect(await reply(bad.frames, 3)).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await reply(bad.frames, 4)).toMatchObject({ ok: false, error: { code: 'bad-request' } });

    good.ws.send(JSON.stringify({ t: 'req', id: 9, method: 'addProject', params: { path: path.join(dir, 'repo') } }));
    expect(await reply(good.frames, 9)).toMatchObject({ ok: true, result: { path: path.join(dir, 'repo') } });
    const event = await waitFor(() => bad.frames.find((frame) => frame.t === 'evt'), 'event on the other client');
    expect(event).toMatchObject({ t: 'evt', event: { name: 'projectChanged' } });
  });

  it('closes even when a page never answers its farewell and a connection never sends a thing', async () => {
    const door = await startWebServer(host, { host: '127.0.0.1', port: 0, rendererDir: path.join(dir, 'renderer') });
    const page = await openDoorSocket(door.url);
    const pageClosed = new Promise((resolve) => page.once('close', resolve));
    // The page stops reading, so it never answers the door's close frame.
    (page as unknown as { _socket: net.Socket })._socket.pause();
    const silent = net.connect(door.port, '127.0.0.1');
    await new Promise((resolve) => silent.once('connect', resolve));
    const silentClosed = new Promise((resolve) => silent.on('error', () => undefined).once('close', resolve));
    await door.close(DOOR_CLOSE.hostStopped);
    await silentClosed;
    (page as unknown as { _socket: net.Socket })._socket.resume();
    await pageClosed;
  });

  it('says which port is taken and how to choose another', async () => {
    const port = Number(new URL(web.url).port);
    await expect(startWebServer(host, { host: '127.0.0.1', port, rendererDir: path.join(dir, 'renderer') })).rejects.toThrow(
      `Port ${port} on 127.0.0.1 is already in use: pick another with --port N (0 picks a free one).`,
    );
  });

  it('streams output as binary frames, only to connections that watch the task', async () => {
    const watcher = await connect();
    const bystander = await connect();
    const project = (await host.core.api.addProject({ path: path.join(dir, 'repo') }));
    await host.core.api.updateProjectSettings({ projectId: project.id, settings: { taskConcurrency: 1 } });
    const blocker = (await host.core.api.createTask({ projectId: project.id, command: 'sleep 0.3' }));
    const task = (await host.core.api.createTask({ projectId: project.id, command: 'echo streamed-output' }));
    watcher.ws.send(JSON.stringify({ t: 'req', id: 1, method: 'watchTaskOutput', params: { taskId: task.id } }));
    await reply(watcher.frames, 1);
    await waitFor(
      () => watcher.frames.some((frame) => frame.t === 'out' && frame.chunk.data instanceof Uint8Array && Buffer.from(frame.chunk.data).toString().includes('streamed-output')),
      'streamed output',
    );
    expect(bystander.frames.some((frame) => frame.t === 'out')).toBe(false);
    expect(blocker.id).not.toBe(task.id);
  });

  it('streams an agent terminal as binary frames, and acknowledged bytes keep a multibyte flood flowing', async () => {
    const client = await connect();
    const project = await host.core.api.addProject({ path: path.join(dir, 'repo') });
    // Each line is 10 bytes but 5 characters: acknowledging bytes must still release the PTY.
    const flood = "yes '\u00e9\u20ac\u{1F600}' | head -n 300000; echo FLOOD-END";
    await host.core.api.saveAgentProfile({
      profile: { id: 'flood', name: 'flood', command: '/bin/sh', args: ['-c', `${flood}; sleep 30`], env: {}, promptPattern: null, busyPattern: null, needsInputPattern: null, usageLimitPattern: null, quietMs: 200, integration: 'none', wakeAs: 'shell-note' },
    });
    const agent = await host.core.api.createAgent({ projectId: project.id, name: 'Flood', role: '', profileId: 'flood' });
    const received: Buffer[] = [];
    let nextId = 10;
    const acks = new AckCounter((bytes) => client.ws.send(JSON.stringify({ t: 'req', id: nextId++, method: 'ackAgentOutput', params: { agentId: agent.id, bytes } })));
    client.ws.on('message', (data, isBinary) => {
      if (!isBinary) return;
      const frame = decodeStreamFrame(data as Buffer) as { t: string; chunk: { data: Uint8Array } } | null;
      if (frame?.t !== 'term') return;
      received.push(Buffer.from(frame.chunk.data));
      acks.written(frame.chunk.data.byteLength);
    });
    client.ws.send(JSON.stringify({ t: 'req', id: 1, method: 'attachAgentTerminal', params: { agentId: agent.id } }));
    await reply(client.frames, 1);
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    await waitFor(() => Buffer.concat(received).includes('FLOOD-END'), 'the whole flood through flow control', 30_000);
    const text = Buffer.concat(received).toString('utf8');
    expect(text).not.toContain('\uFFFD');
    expect(text.match(/\u00e9\u20ac\u{1F600}/gu)).toHaveLength(300_000);
    await host.core.api.stopAgent({ agentId: agent.id });
  });

  it('bound beyond loopback, accepts pages of its bound address and the listed origins only, never by the Host header', async () => {
    const lan = await startWebServer(host, { host: '0.0.0.0', port: 0, rendererDir: path.join(dir, 'renderer'), allowOrigins: ['http://drover.lan:7400'] });
    try {
      const port = new URL(lan.url).port;
      const url = `http://127.0.0.1:${port}/?token=${lan.token}`;
      // DNS rebinding: a page at evil.example, whose name now points here, sends its own name as Host.
      await expect(connect({ origin: `http://evil.example:${port}`, headers: { Host: `evil.example:${port}` } }, url)).rejects.toThrow('HTTP 403');
      for (const origin of [`http://0.0.0.0:${port}`, 'http://drover.lan:7400', `http://127.0.0.1:${port}`]) {
        const { ws } = await connect({ origin }, url);
        expect(ws.readyState).toBe(WebSocket.OPEN);
      }
      for (const alias of [`http://localhost:${port}`, `http://[::1]:${port}`]) await expect(connect({ origin: alias }, url)).rejects.toThrow('HTTP 403');
    } finally {
      await lan.close(DOOR_CLOSE.hostStopped);
    }
    await expect(startWebServer(host, { host: '127.0.0.1', port: 0, rendererDir: path.join(dir, 'renderer'), allowOrigins: ['drover.lan'] })).rejects.toThrow(
      /not an origin like http:\/\/drover.lan:7400/,
    );
  });

  it('bound by the name localhost, shows and accepts the one address it holds, not the name', async () => {
    const named = await startWebServer(host, { host: 'localhost', port: 0, rendererDir: path.join(dir, 'renderer') });
    try {
      const { hostname, port } = new URL(named.url);
      expect(['127.0.0.1', '[::1]']).toContain(hostname);
      const { ws } = await connect({ origin: `http://${hostname}:${port}` }, named.url);
      expect(ws.readyState).toBe(WebSocket.OPEN);
      await expect(connect({ origin: `http://localhost:${port}` }, named.url)).rejects.toThrow('HTTP 403');
    } finally {
      await named.close(DOOR_CLOSE.hostStopped);
    }
  });

  it('answers a page loaded at another name or address of the machine with a plain page naming its own address, without the token', async () => {
    const { origin, port } = new URL(web.url);
    const load = (hostHeader: string, method = 'GET') =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, path: `/?token=${web.token}`, method, headers: { Host: hostHeader } }, (response) => {
          let body = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
        });
        request.once('error', reject);
        request.end();
      });
    for (const hostHeader of [`localhost:${port}`, `[::1]:${port}`, `127.0.0.1:${Number(port) + 1}`, `evil.example:${port}`]) {
      const page = await load(hostHeader);
      expect({ hostHeader, status: page.status, type: page.headers['content-type'] }).toEqual({ hostHeader, status: 421, type: 'text/html; charset=utf-8' });
      expect(page.body).toContain(`Drover is served at ${origin}`);
      expect(page.body).toContain(`<a href="${origin}/">`);
      expect(page.body).toContain('Open the URL drover serve printed');
      expect(page.body).not.toContain(web.token);
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.headers['referrer-policy']).toBe('no-referrer');
    }
    expect((await load(`localhost:${port}`, 'HEAD')).body).toBe('');
    expect((await load(`localhost:${port}`, 'POST')).status).toBe(405);
    const own = await load(`127.0.0.1:${port}`);
    expect(own.status).toBe(200);
    expect(own.body).toContain('<title>Drover</title>');
  });

  it('bound to ::, which holds 127.0.0.1 too, accepts pages of both loopback addresses', async () => {
    const dual = await startWebServer(host, { host: '::', port: 0, rendererDir: path.join(dir, 'renderer') });
    try {
      const port = new URL(dual.url).port;
      for (const address of ['127.0.0.1', '[::1]']) {
        const origin = `http://${address}:${port}`;
        const { ws } = await connect({ origin }, `${origin}/?token=${dual.token}`);
        expect(ws.readyState).toBe(WebSocket.OPEN);
        expect((await fetch(`${origin}/`)).status).toBe(200);
      }
    } finally {
      await dual.close(DOOR_CLOSE.hostStopped);
    }
  });

  it('answers binary, deeply nested and prototype-keyed frames with errors and keeps serving', async () => {
    const client = await connect();
    client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    client.ws.send(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    client.ws.send('{"t":"req","id":5,"method":"getStatus","params":{"__proto__":{"polluted":true}}}');
    client.ws.send('{"t":"req","id":6,"method":"constructor","params":{}}');
    client.ws.send(JSON.stringify({ t: 'req', id: 7, method: 'getStatus', params: {} }));
    await waitFor(() => client.frames.filter((frame) => frame.t === 'res').length === 5, 'five answers');
    const answers = client.frames.flatMap((frame) => (frame.t === 'res' ? [frame.ok ? 'ok' : `${frame.id}: ${frame.error.code}: ${frame.error.message}`] : []));
    expect(answers).toEqual([
      'null: bad-request: Malformed frame: binary frames are not accepted; send JSON text',
      'null: bad-request: Malformed frame: nested more than 64 levels deep',
      expect.stringMatching(/^5: bad-request: Invalid getStatus params/),
      '6: unknown-method: Unknown method: constructor',
      'ok',
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
