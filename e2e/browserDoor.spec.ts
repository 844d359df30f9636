import type { Page } from '@playwright/test';
import { WebSocketServer } from 'ws';
import { runCli } from '../test-support/droverProcess';
import { screenshot } from './support/agents';
import { expect, test } from './support/droverHost';

/** A page that reached its host shows its projects page, and no banner. */
async function expectConnected(page: Page): Promise<void> {
  await expect(page.getByRole('contentinfo')).toContainText('Connected');
  await expect(page.getByRole('alert')).toHaveCount(0);
}

/** Another user's program on the door's port once the door closed: it records what pages send it, and answers as a door would, without the token. */
async function squat(port: number): Promise<{ received: string[]; close: () => Promise<void> }> {
  const received: string[] = [];
  const server = new WebSocketServer({ host: '127.0.0.1', port });
  server.on('connection', (ws, request) => {
    received.push(`upgrade ${request.url ?? ''}`);
    ws.on('message', (data) => {
      received.push(data.toString());
      ws.send(JSON.stringify({ t: 'door-challenge', doorNonce: 'e'.repeat(64), doorProof: 'f'.repeat(64) }));
    });
  });
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return { received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('a page opened without its token says it needs the URL drover serve printed, and never that it reconnects', async ({ page, drover }) => {
  const url = await drover.startHost();
  const { origin } = new URL(url);
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));

  // A bookmark, a history entry, a URL copied to a phone: the address without ?token=.
  await page.goto(`${origin}/`);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('This page was opened without its access token, so it cannot connect.');
  await expect(alert).toContainText('Open the URL drover serve printed');
  await expect(alert).toContainText('browser-token file of the data dir');
  await expect(page.getByRole('contentinfo')).toContainText('Not connected');
  await expect(page.getByText(/reconnect/i)).toHaveCount(0);
  await screenshot(page, 'door-no-token.png');
  expect(sockets).toEqual([]);

  // A token that is not this door's: the door does not prove it holds it, and the page stops.
  await page.goto(`${origin}/?token=${'x'.repeat(32)}`);
  await expect(alert).toContainText("The server on this page's port did not prove it holds this page's token");
  await expect(page.getByText(/reconnect/i)).toHaveCount(0);

  // The printed URL connects, and a reload or the bare address in the same tab still does.
  await page.goto(url);
  await expectConnected(page);
  expect(new URL(page.url()).searchParams.has('token')).toBe(false);
  await page.goto(`${origin}/`);
  await expectConnected(page);
  expect(sockets.every((socket) => !socket.includes('token'))).toBe(true);
});

test("a page opened at localhost of a door on 127.0.0.1 is told the door's own address, and never that it reconnects", async ({ page, drover }) => {
  const url = await drover.startHost();
  const { origin, port } = new URL(url);
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));

  const response = await page.goto(`http://localhost:${port}/?token=${new URL(url).searchParams.get('token')}`);
  expect(response?.status()).toBe(421);
  await expect(page.getByRole('heading')).toHaveText(`Drover is served at ${origin}`);
  await expect(page.getByRole('link', { name: origin })).toHaveAttribute('href', `${origin}/`);
  await expect(page.getByText('Open the URL drover serve printed')).toBeVisible();
  await expect(page.getByText(/reconnect/i)).toHaveCount(0);
  expect(await page.content()).not.toContain(new URL(url).searchParams.get('token'));
  await screenshot(page, 'door-misdirected.png');
  expect(sockets).toEqual([]);
});

test("a page whose door closed gives a program that took the port nothing of its token, and the next serve opens elsewhere with a new one", async ({ page, drover }) => {
  const url = await drover.startHost();
  const port = Number(new URL(url).port);
  const token = new URL(url).searchParams.get('token') as string;
  await page.goto(url);
  await expectConnected(page);
  const kept = await page.evaluate(() => Object.values(sessionStorage));

  await drover.host().stopServe();
  await expect(page.getByRole('alert')).toContainText('drover serve, which served this page, stopped — reconnecting…');
  const squatter = await squat(port);
  try {
    // The page knocks on its port again and meets a server that cannot prove the token: it sends a nonce, and nothing else.
    await expect.poll(() => squatter.received.length, { timeout: 30_000 }).toBeGreaterThan(1);
    for (const what of squatter.received) {
      expect(what).not.toContain(token);
      for (const value of kept) expect(what).not.toContain(value);
    }
    expect(squatter.received.filter((what) => !what.startsWith('upgrade /api')).map((what) => (JSON.parse(what) as { t: string }).t)).toEqual(['door-hello']);
    await expect(page.getByRole('alert')).toContainText("did not prove it holds this page's token, so the page sent it nothing and stopped");
    await expect(page.getByText(/reconnect/i)).toHaveCount(0);
    await screenshot(page, 'door-not-the-door.png');
    // What the tab kept is a key for its own address, never the token.
    expect(kept).toEqual([expect.stringMatching(/^[0-9a-f]{64}$/)]);

    // The next serve finds its port taken: it opens on another, with a new token, and says so.
    const moved = new URL(await drover.startServe());
    expect(Number(moved.port)).not.toBe(port);
    expect(moved.searchParams.get('token')).not.toBe(token);
    expect(drover.host().stderr()).toContain(`port ${port}, where the browser door served last, is taken by another program: the door opened on ${moved.port} with a new token`);
    await page.goto(moved.href);
    await expectConnected(page);
  } finally {
    await squatter.close();
  }
});

test('a page tells a host that vanished from one stopped on purpose, and neither says its agents go on', async ({ page, drover }) => {
  const url = await drover.startHost();
  await page.goto(url);
  await expectConnected(page);

  // Stopped on purpose: the host closes the page's socket saying so.
  const stopped = await runCli(['--data-dir', drover.dataDir, 'host', 'stop', '--force']);
  expect(stopped.code, stopped.stderr).toBe(0);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The Drover host was stopped — reconnecting… Its agents and running tasks ended with it');
  await expect(alert).not.toContainText('go on');

  // Vanished: the host is killed while its serve is frozen, so no door is left to say a word.
  expect(await drover.startHost()).toBe(url);
  await expectConnected(page);
  const serve = drover.host();
  process.kill(-(serve.child.pid as number), 'SIGSTOP');
  process.kill(serve.hostPid(), 'SIGKILL');
  await expect(alert).toContainText('Lost the Drover host without a word from it (it crashed or was killed, or the network dropped) — reconnecting…');
  await expect(alert).toContainText('If it crashed, its agents and running tasks ended with it');
  await expect(alert).not.toContainText('go on');
  await screenshot(page, 'door-host-vanished.png');
  await serve.stopServe('SIGKILL');
});
