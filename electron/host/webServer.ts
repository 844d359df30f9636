import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONTENT_SECURITY_POLICY } from '../../shared/contentSecurityPolicy';
import type { PushFrame, ResponseFrame } from '../../shared/protocol';
import type { DroverHost } from './host';
import { parseJson } from './lineFraming';
import { MAX_CLIENT_BACKLOG_BYTES } from './localSocketServer';

const HEARTBEAT_MS = 30_000;

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
}

export interface WebServer {
  url: string;
  token: string;
  close(): Promise<void>;
}

function sameToken(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function reject(socket: import('node:stream').Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * The browser host's door: the built renderer over HTTP and the API over a WebSocket at /api that
 * needs the random token and an Origin of this server (or none, for non-browser clients).
 */
export async function startWebServer(host: DroverHost, options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const rendererRoot = path.resolve(options.rendererDir);
  if (!fs.existsSync(path.join(rendererRoot, 'index.html'))) {
    throw new Error(`The renderer is not built (${rendererRoot}/index.html is missing): run npm run build first.`);
  }

  const server = http.createServer((request, response) => serveStatic(rendererRoot, request, response));
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });
  let allowedOrigins = new Set<string>();
  // Bound beyond loopback (--host 0.0.0.0 or a LAN address), pages reach it by names we can't list.
  const servesNetwork = !['127.0.0.1', 'localhost', '::1'].includes(options.host);

  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://placeholder');
    if (url.pathname !== '/api') return reject(socket, 404, 'Not Found');
    if (!sameToken(url.searchParams.get('token'), token)) return reject(socket, 401, 'Unauthorized');
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin) && !(servesNetwork && origin === `http://${request.headers.host}`)) {
      return reject(socket, 403, 'Forbidden');
    }
    sockets.handleUpgrade(request, socket, head, (ws) => serveClient(host, ws));
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
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  allowedOrigins = new Set([`http://${shownHost}:${port}`, `http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]);

  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function serveClient(host: DroverHost, ws: WebSocket): void {
  const send = (frame: ResponseFrame | PushFrame) => {
    if (ws.readyState !== ws.OPEN) return;
    // A client that stopped reading is cut off (it resyncs from a snapshot when it reconnects).
    if (ws.bufferedAmount > MAX_CLIENT_BACKLOG_BYTES) ws.terminate();
    else ws.send(JSON.stringify(frame));
  };
  // A peer that vanished without closing (a dropped network) must not hold a paused terminal.
  let alive = true;
  ws.on('pong', () => (alive = true));
  const heartbeat = setInterval(() => {
    if (!alive) ws.terminate();
    alive = false;
    ws.ping();
  }, HEARTBEAT_MS);
  heartbeat.unref();
  ws.on('close', () => clearInterval(heartbeat));
  const connection = host.openConnection(send);
  ws.on('message', (data, isBinary) => {
    const raw = isBinary ? new Error('binary frames are not accepted') : parseJson(data.toString());
    if (raw instanceof Error) {
      send({ t: 'res', id: null, ok: false, error: { code: 'bad-request', message: `Malformed frame: ${raw.message}` } });
      return;
    }
    void connection.handle(raw).then(send);
  });
  ws.on('close', () => connection.close());
  ws.on('error', () => ws.terminate());
}

function serveStatic(root: string, request: http.IncomingMessage, response: http.ServerResponse): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://placeholder').pathname);
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
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=31536000, immutable',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
}
