import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DOOR_CLOSE } from '../../shared/browserDoor';
import type { WebDoor } from '../../shared/host';
import { fail } from '../core/errors';
import { readOwnPrivateFile, writePrivateFile } from './privateDataDir';
import { parseOrigin, startWebServer, type WebServer, type WebServerHost } from './webServer';

const TOKEN_FILE = 'browser-token';
/** The port the browser door last listened on, so a page left open finds the next one there. */
const LAST_PORT_FILE = 'web-door.json';

const LastPortSchema = z.object({ port: z.number().int().min(1).max(65535) });

export interface WebDoorRequest {
  host: string;
  /** 0: the last port, if it is free, else any free one. */
  port: number;
  allowOrigins: readonly string[];
  newToken: boolean;
  /** `port`, or any free one with a new token when another program holds it. */
  moveIfTaken: boolean;
}

/**
 * The browser token lives in the data dir (owner-only), so a page left open across a restart of
 * the host reconnects instead of being locked out; `fresh` replaces it. A token file that is not
 * this user's alone (another user's, a symlink, readable by others) is never served: it is replaced.
 */
function browserToken(dataDir: string, fresh: boolean, log: (line: string) => void): string {
  const file = path.join(dataDir, TOKEN_FILE);
  if (!fresh) {
    const existing = readOwnPrivateFile(file)?.trim();
    if (existing !== undefined && /^[A-Za-z0-9_-]{32,}$/.test(existing)) return existing;
    if (somethingAt(file)) log(`${file} was not a token of this user's alone (its owner, mode, kind or content); a new token replaces it`);
  }
  const token = randomBytes(24).toString('base64url');
  writePrivateFile(file, `${token}\n`);
  return token;
}

/** Anything at all is there, a dangling symlink too. */
function somethingAt(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function lastPort(dataDir: string): number | null {
  try {
    const parsed = LastPortSchema.safeParse(JSON.parse(fs.readFileSync(path.join(dataDir, LAST_PORT_FILE), 'utf8')));
    return parsed.success ? parsed.data.port : null;
  } catch {
    return null;
  }
}

function isAddressInUse(error: unknown): boolean {
  return (error as { cause?: { code?: unknown } }).cause?.code === 'EADDRINUSE';
}

/**
 * The host's browser doors: each `drover serve` opens one, which stays open while that serve's
 * connection does. Pages reach the host directly through it (no process in between), with the
 * token and Origin checks of webServer.ts.
 */
export class WebDoors {
  private readonly open = new Set<WebServer>();
  private opening = false;

  constructor(
    private readonly host: WebServerHost,
    private readonly dataDir: string,
    private readonly rendererDir: string,
  ) {}

  /**
   * Opens a door that closes when `until` aborts (its serve's connection ended); one at a time, so a
   * second serve is told where the first one serves rather than opening a door beside it. A door that cannot
   * have the port it last served on (or the one it asked for, `moveIfTaken`), because another
   * program holds it, opens elsewhere with a new token: the pages left open knock on the old port,
   * and whoever holds it must not meet them with a token a door still takes.
   */
  async openDoor(request: WebDoorRequest, until: AbortSignal): Promise<WebDoor> {
    const serving = [...this.open][0];
    if (serving) fail('invalid-state', `${this.dataDir} is served already, at ${new URL(serving.url).origin} (another drover serve keeps that door open); stop that serve first.`);
    if (this.opening) fail('invalid-state', `${this.dataDir} is being served already (another drover serve is opening its door); stop that serve first.`);
    // Held from here to the door's record: two requests racing must not both pass the check above.
    this.opening = true;
    try {
      return await this.openOnly(request, until);
    } finally {
      this.opening = false;
    }
  }

  private async openOnly(request: WebDoorRequest, until: AbortSignal): Promise<WebDoor> {
    let allowOrigins: string[];
    try {
      allowOrigins = request.allowOrigins.map(parseOrigin);
    } catch (error) {
      fail('bad-request', error instanceof Error ? error.message : String(error));
    }
    const options = { host: request.host, rendererDir: this.rendererDir, allowOrigins };
    const remembered = request.port === 0 ? lastPort(this.dataDir) : null;
    const wanted = remembered ?? request.port;
    const mayMove = remembered !== null || request.moveIfTaken;
    const start = (port: number, token: string) => startWebServer(this.host, { ...options, port, token });
    const log = (line: string) => this.host.log(line);
    let movedFrom: number | null = null;
    let server: WebServer;
    try {
      server = await start(wanted, browserToken(this.dataDir, request.newToken, log)).catch((error: unknown) => {
        if (!mayMove || wanted === 0 || !isAddressInUse(error)) throw error;
        movedFrom = wanted;
        return start(0, browserToken(this.dataDir, true, log));
      });
    } catch (error) {
      fail('conflict', error instanceof Error ? error.message : String(error));
    }
    if (movedFrom !== null) log(`port ${movedFrom}, where the browser door served last, is taken by another program: the door opened on ${server.port} with a new token`);
    fs.writeFileSync(path.join(this.dataDir, LAST_PORT_FILE), `${JSON.stringify({ port: server.port })}\n`, { mode: 0o600 });
    this.open.add(server);
    const close = () => {
      this.open.delete(server);
      void server.close(DOOR_CLOSE.serveEnded);
    };
    if (until.aborted) close();
    else until.addEventListener('abort', close, { once: true });
    return { url: server.url, port: server.port, movedFrom };
  }

  urls(): string[] {
    return [...this.open].map((server) => server.url);
  }

  /** The host stops: every page is told so. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.open].map((server) => server.close(DOOR_CLOSE.hostStopped)));
    this.open.clear();
  }
}
