import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { DoorFarewell } from '../../shared/browserDoor';
import { SECURITY_HEADERS } from '../../shared/contentSecurityPolicy';
import { MAX_REQUEST_FRAME_BYTES } from '../../shared/protocol';
import { ClientFlow } from './clientFlow';
import { admitPage, pageKeyFor } from './doorHandshake';
import type { Connection } from './connection';
import type { HostPush } from '../wire/frameCodec';
import { openMachinePage, type MachineDoorHost } from './machineDoor';
import { webSocketPageChannel } from './pageChannel';
import { isMisdirected, misdirectedPage, pageHostsOf } from './misdirectedPage';
import { PendingConnections } from './pendingConnections';

const HEARTBEAT_MS = 30_000;
/** How long pages have to answer the door's closing before they are cut off. */
const FAREWELL_MS = 1_000;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

export interface WebServerOptions {
  host: string;
  port: number;
  rendererDir: string;
  /** Defaults to a fresh random token. */
  token?: string;
  /**
   * Page origins (scheme://host:port) allowed besides this server's bound address; for a bind
   * reached by a name (`--allow-origin`).
   */
  allowOrigins?: readonly string[];
}

export interface WebServer {
  url: string;
  port: number;
  token: string;
  /** Closes the door: the pages it let in are told why (`farewell`), connections on their way in are cut. */
  close(farewell: DoorFarewell): Promise<void>;
}

/** What a door needs of the host: a connection per client, a way to every machine, and the log. */
export interface WebServerHost extends MachineDoorHost {
  openConnection(push: (frame: HostPush) => void, door: 'web'): Connection;
}

/** A machine's page lives under /machines/NAME/: the same UI, talking to that machine's host. */
const MACHINE_PATH = /^\/machines\/([a-z0-9][a-z0-9._-]{0,39})(\/.*)$/;

const SECURITY_HEADER_LINES = Object.entries(SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/** A refused WebSocket upgrade, written on the raw socket, with the same headers as every reply. */
function reject(socket: import('node:stream').Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n${SECURITY_HEADER_LINES}\r\n`);
}

/** `scheme://host[:port]` exactly as a browser sends it in Origin, or an error saying what is wrong. */
export function parseOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--allow-origin ${text} is not an origin like http://drover.lan:7400`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== text.replace(/\/$/, '')) {
    throw new Error(`--allow-origin ${text} is not an origin like http://drover.lan:7400 (scheme, host and port only)`);
  }
  return url.origin;
}

/** An address as it stands in a URL: an IPv6 one in brackets. */
function urlHost(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/** The loopback addresses a wildcard bind holds too (no other program can bind them on that port): `::` is dual-stack. */
const LOOPBACK_OF_WILDCARD: Readonly<Record<string, readonly string[]>> = { '0.0.0.0': ['127.0.0.1'], '[::]': ['[::1]', '127.0.0.1'] };

/**
 * The origins of this door's pages: the address it is bound to, exactly as its URL shows it (and
 * for a wildcard bind, which no browser opens, the loopback addresses that socket holds), and those
 * listed. Never another name or address family of the same machine (`localhost`, `[::1]` for a door
 * on 127.0.0.1): another user can bind that on the same port, and relay to this door a page that
 * was opened there.
 */
export function originsOf(host: string, port: number, listed: readonly string[]): string[] {
  const loopback = LOOPBACK_OF_WILDCARD[host] ?? [];
  return [`http://${host}:${port}`, ...loopback.map((address) => `http://${address}:${port}`), ...listed.map(parseOrigin)];
}

/**
 * The browser host's door: the built renderer over HTTP and the API over a WebSocket at /api, for
 * an Origin of this server (or none, for non-browser clients) and only once the page's handshake
 * proved it holds the token (doorHandshake.ts). The Host header is never trusted: a page at a
 * rebound name (DNS rebinding) has that name as its Origin; it only picks which answer a page load
 * gets (misdirectedPage.ts). Connections on their way in are few and brief (pendingConnections.ts).
 */
export async function startWebServer(host: WebServerHost, options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const rendererRoot = path.resolve(options.rendererDir);
  if (!fs.existsSync(path.join(rendererRoot, 'index.html'))) {
    throw new Error(`The renderer is not built (${rendererRoot}/index.html is missing): run npm run build first.`);
  }

  const pending = new PendingConnections();
  /** The door's origins, its URL's first, and the hosts its pages are loaded at: known once it is bound. */
  let pageOrigins: string[] = [];
  let pageHosts = new Set<string>();
  const server = http.createServer((request, response) => {
    pending.answering(request.socket);
    response.once('close', () => pending.answered(request.socket));
    if (isMisdirected(request.headers.host, pageHosts)) sendMisdirected(pageOrigins, request, response);
    else serveStatic(rendererRoot, request, response);
  });
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_REQUEST_FRAME_BYTES });
  /** The pages the door let in: told why when it closes; the rest are cut. */
  const pages = new Set<WebSocket>();
  const listedOrigins = options.allowOrigins ?? [];
  listedOrigins.forEach(parseOrigin);

  /** Every connection still open, whatever it became: the door's close ends the ones left after the farewell. */
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
    pending.admit(socket);
  });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    const machine = url.pathname.match(MACHINE_PATH);
    if (url.pathname !== '/api' && machine?.[2] !== '/api') return reject(socket, 404, 'Not Found');
    const origin = request.headers.origin;
    if (origin !== undefined && !pageOrigins.includes(origin)) {
      return reject(socket, 403, 'Forbidden');
    }
    // The upgrade asks for no token: the page proves it holds it in the handshake, once the door proved it first.
    const key = pageKeyFor(token, origin);
    sockets.handleUpgrade(request, socket, head, (ws) => {
      pending.upgraded(socket as Socket);
      admitPage(ws, key, () => {
        pending.letIn(socket as Socket);
        pages.add(ws);
        const stopBeating = keepAlive(ws);
        ws.on('close', () => {
          pages.delete(ws);
          stopBeating();
        });
        if (machine) openMachinePage(host, webSocketPageChannel(ws), machine[1] as string);
        else serveClient(host, ws);
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${options.port} on ${options.host} is already in use: pick another with --port N (0 picks a free one).`, { cause: error })
          : error,
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  // The address bound, not the name given (`localhost` is one of two addresses, and the door holds only one).
  const { address, port } = server.address() as AddressInfo;
  const shownHost = urlHost(address);
  pageOrigins = originsOf(shownHost, port, listedOrigins);
  pageHosts = pageHostsOf(pageOrigins);

  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    close: (farewell) =>
      (closing ??= new Promise<void>((resolve) => {
        // A page that does not answer the close in time is cut off, and so is any connection left:
        // the server closes once they all did, so none may hold the host's shutdown.
        const cutOff = setTimeout(() => {
          for (const socket of connections) socket.destroy();
        }, FAREWELL_MS);
        server.close(() => {
          clearTimeout(cutOff);
          resolve();
        });
        pending.dropAll();
        for (const client of sockets.clients) {
          if (pages.has(client)) client.close(farewell.code, farewell.reason);
          else client.terminate();
        }
        sockets.close();
      })),
  };
}

/** A peer that vanished without closing (a dropped network) must not hold a paused terminal. */
function keepAlive(ws: WebSocket): () => void {
  let alive = true;
  ws.on('pong', () => (alive = true));
  const heartbeat = setInterval(() => {
    if (!alive) ws.terminate();
    alive = false;
    ws.ping();
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return () => clearInterval(heartbeat);
}

function serveClient(host: WebServerHost, ws: WebSocket): void {
  const flow = new ClientFlow(
    {
      // A Buffer goes as a binary message, a string as a text one.
      write: (frame, flushed) => ws.send(frame, () => flushed()),
      backlogBytes: () => ws.bufferedAmount,
      pauseInput: () => ws.pause(),
      resumeInput: () => ws.resume(),
      disconnect: () => ws.terminate(),
    },
    (raw) => connection.handle(raw),
    host.log,
  );
  const connection = host.openConnection((frame) => flow.push(frame), 'web');
  ws.on('message', (data, isBinary) => {
    if (isBinary) flow.receive(new Error('binary frames are not accepted; send JSON text'));
    else flow.receive(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));
  });
  ws.on('close', () => {
    flow.close();
    connection.close();
  });
  ws.on('error', () => ws.terminate());
}

/** Puts the security headers on the reply, and refuses (405) a request that is not a read: the page and its files are only read. */
function refusedNotRead(request: http.IncomingMessage, response: http.ServerResponse): boolean {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  response.writeHead(405, { Allow: 'GET, HEAD' }).end();
  return true;
}

/** 421 Misdirected Request: this door does not serve its page at the address the load named. */
function sendMisdirected(origins: readonly string[], request: http.IncomingMessage, response: http.ServerResponse): void {
  if (refusedNotRead(request, response)) return;
  response.writeHead(421, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(request.method === 'HEAD' ? undefined : misdirectedPage(origins));
}

function serveStatic(root: string, request: http.IncomingMessage, response: http.ServerResponse): void {
  if (refusedNotRead(request, response)) return;
  let pathname: string;
  try {
    const asked = decodeURIComponent(new URL(request.url ?? '/', 'http://placeholder').pathname);
    pathname = asked.match(MACHINE_PATH)?.[2] ?? asked;
  } catch {
    response.writeHead(400).end();
    return;
  }
  const file = path.resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
  if (pathname.includes('\0') || !file.startsWith(root + path.sep)) {
    response.writeHead(403).end();
    return;
  }
  fs.readFile(file, (error, body) => {
    if (error) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    response.writeHead(200, {
      'Content-Type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'Cache-Control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=31536000, immutable',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
}
