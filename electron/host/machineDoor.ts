import type { WebSocket } from 'ws';
import { HOST_METHOD_NAMES } from '../../shared/contract/host';
import { MAX_SERVER_FRAME_BYTES, RequestFrameSchema, type ResponseFrame } from '../../shared/protocol';
import { HostStreamReader } from '../wire/socketRecords';
import type { SshBridge } from '../wire/sshRelay';

/** Above this many bytes waiting for a page, the remote's output waits too (as ClientFlow holds a local one). */
const PAGE_BACKLOG_BYTES = 8 * 1024 * 1024;
const BACKLOG_POLL_MS = 25;
/** A host method a page may call on its machine: the handshake only (a page may not stop a host or open doors). */
const PAGE_HOST_METHODS: ReadonlySet<string> = new Set(['hostHello']);
/** The close code a page sees when the connection to its machine ended; the reason says why. */
export const MACHINE_GONE_CLOSE_CODE = 4001;

function refusal(id: number | null, message: string): string {
  const frame: ResponseFrame = { t: 'res', id, ok: false, error: { code: 'bad-request', message } };
  return JSON.stringify(frame);
}

/**
 * A page of another machine: its WebSocket carried over one ssh bridge to that machine's host.
 * The page's text frames become the socket's lines (re-serialized, so one frame stays one line)
 * and the host's lines and stream records become text and binary messages, as a local page gets
 * them. The remote host sees a socket client, so what a page may not ask for is refused here.
 */
export function serveMachinePage(ws: WebSocket, bridge: SshBridge, log: (line: string) => void): void {
  const fromHost = new HostStreamReader(
    MAX_SERVER_FRAME_BYTES,
    (line) => ws.send(line.toString('utf8')),
    (record) => ws.send(record),
    () => {
      log('a machine sent a frame over the size limit; its page is disconnected');
      ws.terminate();
    },
  );
  let waiting: NodeJS.Timeout | null = null;
  bridge.output.on('data', (chunk: Buffer) => {
    fromHost.push(chunk);
    if (ws.bufferedAmount <= PAGE_BACKLOG_BYTES || waiting) return;
    bridge.output.pause();
    waiting = setInterval(() => {
      if (ws.bufferedAmount > PAGE_BACKLOG_BYTES && ws.readyState === ws.OPEN) return;
      clearInterval(waiting as NodeJS.Timeout);
      waiting = null;
      bridge.output.resume();
    }, BACKLOG_POLL_MS);
  });
  ws.on('message', (data, isBinary) => {
    if (isBinary) return ws.send(refusal(null, 'binary frames are not accepted; send JSON text'));
    let frame;
    try {
      frame = RequestFrameSchema.parse(JSON.parse(data.toString()));
    } catch {
      return ws.send(refusal(null, 'a request frame is JSON {t:"req", id, method, params}'));
    }
    if ((HOST_METHOD_NAMES as readonly string[]).includes(frame.method) && !PAGE_HOST_METHODS.has(frame.method)) {
      return ws.send(refusal(frame.id, `${frame.method} is only for Drover's own commands on the local socket, not for a page.`));
    }
    bridge.input.write(`${JSON.stringify(frame)}\n`);
  });
  ws.on('close', () => {
    if (waiting) clearInterval(waiting);
    bridge.end();
  });
  ws.on('error', () => ws.terminate());
  void bridge.ended.then((reason) => {
    // A WebSocket close reason holds at most 123 bytes.
    const said = (reason ?? 'the connection to the machine ended').slice(0, 120);
    if (ws.readyState === ws.OPEN) ws.close(MACHINE_GONE_CLOSE_CODE, said);
  });
}
