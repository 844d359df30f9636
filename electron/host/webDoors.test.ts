import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { DOOR_CLOSE } from '../../shared/browserDoor';
import { REPO_ROOT } from '../../test-support/buildOnce';
import { openDoorSocket } from '../../test-support/doorSocket';
import { portAnswers } from '../../test-support/ports';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { connectToDrover, type SocketClient } from '../cli/socketClient';
import { startHost, type DroverHost } from './host';

/** A page's API socket, as the browser opens it (with the door's own Origin), and how it closed. */
async function openPage(url: string, token?: string): Promise<{ ws: WebSocket; closed: Promise<{ code: number; reason: string }> }> {
  const ws = await openDoorSocket(url, { origin: new URL(url).origin, ...(token ? { token } : {}) });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return { ws, closed };
}

function ask(ws: WebSocket, method: string, params: unknown): Promise<{ ok: boolean; error?: { message: string } }> {
  return new Promise((resolve) => {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const frame = JSON.parse(String(data)) as { t: string; id: number; ok: boolean; error?: { message: string } };
      if (frame.t === 'res' && frame.id === 7) resolve(frame);
    });
    ws.send(JSON.stringify({ t: 'req', id: 7, method, params }));
  });
}

describe("the host's browser doors", () => {
  let dir: string;
  let host: DroverHost;
  const clients: SocketClient[] = [];
  const logged: string[] = [];
  const serveClient = async () => {
    const client = await connectToDrover(host.socketPath, {}, { client: 'serve' });
    clients.push(client);
    return client;
  };
  const door = async (client: SocketClient, port = 0) => client.rpc.call('openWebDoor', { host: '127.0.0.1', port, allowOrigins: [], newToken: false });

  beforeEach(async () => {
    dir = makeTempDir();
    logged.length = 0;
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', rendererDir: path.join(REPO_ROOT, 'dist', 'renderer'), log: (line) => logged.push(line) });
  });
  afterEach(async () => {
    clients.splice(0).forEach((client) => client.close());
    await host.close();
    removeDir(dir);
  });

  it('stay open while the serve that opened them does, and the next one takes the same port and token', async () => {
    const serve = await serveClient();
    const first = await door(serve);
    const page = await openPage(first.url);
    expect((await host.core.api.getStatus({})).version).toBe('test');
    serve.close();
    // The page is told it was its serve that went, and that the host and its work go on.
    expect(await page.closed).toEqual(DOOR_CLOSE.serveEnded);
    await waitFor(async () => !(await portAnswers(first.port)), 'the door closed with its serve');

    const again = await door(await serveClient());
    expect(again).toEqual(first);
    const reopened = await openPage(again.url);
    reopened.ws.close();
  });

  it('take another free port with a new token when the last one is taken meanwhile, and say so', async () => {
    const serve = await serveClient();
    const first = await door(serve);
    serve.close();
    await waitFor(async () => !(await portAnswers(first.port)), 'the door closed');
    const squatter = net.createServer().listen(first.port, '127.0.0.1');
    await new Promise((resolve) => squatter.once('listening', resolve));
    try {
      const movedServe = await serveClient();
      const moved = await door(movedServe);
      expect(moved.port).not.toBe(first.port);
      expect(moved.movedFrom).toBe(first.port);
      // Pages left open knock on the old port, where the squatter is: the token they hold opens no door.
      const oldToken = new URL(first.url).searchParams.get('token') as string;
      const newToken = new URL(moved.url).searchParams.get('token') as string;
      expect(newToken).not.toBe(oldToken);
      expect(fs.readFileSync(path.join(host.dataDir, 'browser-token'), 'utf8').trim()).toBe(newToken);
      await expect(openPage(moved.url, oldToken)).rejects.toThrow('the door did not prove it holds the token');
      (await openPage(moved.url)).ws.close();
      expect(logged.join('\n')).toContain(`port ${first.port}, where the browser door served last, is taken by another program: the door opened on ${moved.port} with a new token`);
      movedServe.close();
      await waitFor(async () => !(await portAnswers(moved.port)), 'the moved door closed with its serve');
      await expect(door(await serveClient(), first.port)).rejects.toThrow(`Port ${first.port} on 127.0.0.1 is already in use`);
      // serve reopening on a port the person did not choose asks for it, or a move with a new token.
      const reopened = await (await serveClient()).rpc.call('openWebDoor', { host: '127.0.0.1', port: first.port, allowOrigins: [], newToken: false, moveIfTaken: true });
      expect(reopened.movedFrom).toBe(first.port);
      expect(new URL(reopened.url).searchParams.get('token')).not.toBe(newToken);
    } finally {
      squatter.close();
    }
  });

  it('open one at a time: a second is refused, naming where the first one serves, until the first closes', async () => {
    const serve = await serveClient();
    const first = await door(serve);
    await expect(door(await serveClient())).rejects.toThrow(`is served already, at ${new URL(first.url).origin} (another drover serve keeps that door open)`);
    await expect(door(await serveClient())).rejects.not.toThrow(new URL(first.url).searchParams.get('token') as string);
    serve.close();
    await waitFor(async () => !(await portAnswers(first.port)), 'the first door closed with its serve');
    expect(await door(await serveClient())).toEqual(first);
  });

  it('open one at a time when two serves ask at once: one door opens, the other is refused, the token kept', async () => {
    const tokenFile = path.join(dir, 'data', 'browser-token');
    const [one, other] = [await serveClient(), await serveClient()];
    const [first, second] = await Promise.allSettled([door(one), door(other)]);
    const opened = [first, second].filter((outcome) => outcome.status === 'fulfilled');
    const refused = [first, second].filter((outcome) => outcome.status === 'rejected');
    expect(opened).toHaveLength(1);
    // Which refusal depends on how far the first got when the second came (opening, or open).
    expect(String(refused[0]?.reason)).toMatch(/another drover serve (is opening its door|keeps that door open)/);
    expect(new URL(opened[0]!.value.url).searchParams.get('token')).toBe(fs.readFileSync(tokenFile, 'utf8').trim());
  });

  it("tell their pages when the host stops, so none says its agents go on", async () => {
    const { url } = await door(await serveClient());
    const page = await openPage(url);
    await host.close();
    expect(await page.closed).toEqual(DOOR_CLOSE.hostStopped);
  });

  it('never let a page stop the host or open a door of its own', async () => {
    const { url } = await door(await serveClient());
    const page = await openPage(url);
    for (const method of ['stopHost', 'openWebDoor']) {
      const reply = await ask(page.ws, method, method === 'stopHost' ? {} : { host: '0.0.0.0', port: 0 });
      expect(reply.ok).toBe(false);
      expect(reply.error?.message).toContain(`${method} is only for Drover's own commands on the local socket`);
    }
    page.ws.close();
    expect((await host.core.api.listProjects({})).projects).toEqual([]);
  });
});
