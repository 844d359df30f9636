import type { WebSocket } from 'ws';
import { MACHINE_GONE_CLOSE_CODE } from '../../shared/machines';
import { MAX_SERVER_FRAME_BYTES, refusalFrame, RequestFrameSchema } from '../../shared/protocol';
import { connectionEndedReason, GREETING_ID, greetingFrame, greetingProblem, pageRequestProblem } from '../wire/machinePageRules';
import { HostStreamReader } from '../wire/socketRecords';
import type { SshBridge } from '../wire/sshRelay';

/** Above this many bytes waiting for a page, the remote's output waits too (as ClientFlow holds a local one). */
const PAGE_BACKLOG_BYTES = 8 * 1024 * 1024;
const BACKLOG_POLL_MS = 25;

/** A WebSocket close reason holds at most 123 bytes: ssh's own words go first when it is too long. */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= 123) return text;
  const plain = text.split(' (ssh: ')[0] ?? text;
  return Buffer.byteLength(plain) <= 123 ? plain : `${Buffer.from(plain).subarray(0, 119).toString('utf8').replace(/\uFFFD$/, '')}…`;
}

/** The host's reply to the greeting, or null when the line is anything else. */
function greetingReply(line: string): unknown {
  try {
    const frame = JSON.parse(line) as { t?: unknown; id?: unknown };
    return frame.t === 'res' && frame.id === GREETING_ID ? frame : null;
  } catch {
    return null;
  }
}

function refusal(id: number | null, message: string): string {
  return JSON.stringify(refusalFrame(id, 'bad-request', message));
}

/**
 * A page of another machine: its WebSocket carried over one ssh bridge to that machine's host.
 * The page's text frames become the socket's lines (re-serialized, so one frame stays one line)
 * and the host's lines and stream records become text and binary messages, as a local page gets
 * them. The remote host sees a socket client, so what a page may not ask for is refused here.
 */
export function serveMachinePage(ws: WebSocket, bridge: SshBridge, greeting: { machine: string; version: string }, log: (line: string) => void): void {
  // The page counts as connected from the first message it gets: the machine's answer to this
  // door's greeting. What the host sends before it waits; a host that cannot serve the page closes
  // it with the reason, so the page never shows a connection that was not there.
  let greeted = false;
  const early: (string | Buffer)[] = [];
  const toPage = (message: string | Buffer) => (greeted ? ws.send(message) : early.push(message));
  const fromHost = new HostStreamReader(
    MAX_SERVER_FRAME_BYTES,
    (line) => {
      const text = line.toString('utf8');
      const reply = greeted ? null : greetingReply(text);
      if (!reply) return toPage(text);
      const problem = greetingProblem(greeting.machine, reply);
      if (problem) {
        if (ws.readyState === ws.OPEN) ws.close(MACHINE_GONE_CLOSE_CODE, closeReason(problem));
        return bridge.end();
      }
      greeted = true;
      ws.send(text);
      for (const message of early.splice(0)) ws.send(message);
    },
    toPage,
    () => {
      log('a machine sent a frame over the size limit; its page is disconnected');
      ws.terminate();
    },
  );
  let waiting: NodeJS.Timeout | null = null;
  bridge.output.on('data', (chunk: Buffer) => {
    if (ws.readyState !== ws.OPEN) return;
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
  bridge.input.write(`${JSON.stringify(greetingFrame(greeting.version))}\n`);
  ws.on('message', (data, isBinary) => {
    if (isBinary) return ws.send(refusal(null, 'binary frames are not accepted; send JSON text'));
    let frame;
    try {
      frame = RequestFrameSchema.parse(JSON.parse(data.toString()));
    } catch {
      return ws.send(refusal(null, 'a request frame is JSON {t:"req", id, method, params}'));
    }
    const problem = pageRequestProblem(frame);
    if (problem) return ws.send(refusal(frame.id === GREETING_ID ? null : frame.id, problem));
    bridge.input.write(`${JSON.stringify(frame)}\n`);
  });
  ws.on('close', () => {
    if (waiting) clearInterval(waiting);
    // What the host still sends is dropped: ssh blocked on a full pipe would never see its end.
    bridge.output.resume();
    bridge.end();
  });
  ws.on('error', () => ws.terminate());
  void bridge.ended.then((reason) => {
    if (ws.readyState === ws.OPEN) ws.close(MACHINE_GONE_CLOSE_CODE, closeReason(reason ?? connectionEndedReason(greeting.machine)));
  });
}
