import { MAX_SERVER_FRAME_BYTES, refusalFrame, RequestFrameSchema } from '../../shared/protocol';
import { connectionEndedReason, GREETING_ID, greetingFrame, greetingProblem, pageRequestProblem } from '../wire/machinePageRules';
import { HostStreamReader } from '../wire/socketRecords';
import type { SshBridge } from '../wire/sshRelay';
import type { PageChannel } from './pageChannel';

/** Above this many bytes waiting for a page, the remote's output waits too (as ClientFlow holds a local one). */
const PAGE_BACKLOG_BYTES = 8 * 1024 * 1024;
const BACKLOG_POLL_MS = 25;

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

/** What the machine door needs of the host. */
export interface MachineDoorHost {
  /** A bridge to the host of the machine of that name, or null when there is no such machine. */
  openMachine(name: string): Promise<SshBridge | null>;
  /** This Drover's version, which its pages greet another machine's host with. */
  version: string;
  log(line: string): void;
}

/**
 * A page's line to another machine, once it is let in (a browser page through the door, a desktop
 * window through the local socket): the door opens the bridge to that machine's host, or says why
 * it cannot.
 */
export function openMachinePage(host: MachineDoorHost, page: PageChannel, name: string): void {
  const refuse = (reason: string) => {
    if (page.isOpen()) page.closeGone(reason);
  };
  void host.openMachine(name).then(
    (bridge) => {
      if (!bridge) return refuse(`No machine named ${name} here: it was removed, or never added.`);
      // The page may have gone while its machine's bridge was being started.
      if (!page.isOpen()) return bridge.end();
      serveMachinePage(page, bridge, { machine: name, version: host.version }, host.log);
    },
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      host.log(`could not open the page of machine ${name}: ${reason}`);
      refuse(reason);
    },
  );
}

/**
 * A page of another machine: its line carried over one ssh bridge to that machine's host. The
 * page's frames become the socket's lines (re-serialized, so one frame stays one line) and the
 * host's lines and stream records become text and binary frames, as a local page gets them. The
 * remote host sees a socket client, so what a page may not ask for is refused here.
 */
export function serveMachinePage(page: PageChannel, bridge: SshBridge, greeting: { machine: string; version: string }, log: (line: string) => void): void {
  // The page counts as connected from the first frame it gets: the machine's answer to this
  // door's greeting. What the host sends before it waits; a host that cannot serve the page ends
  // its line with the reason, so the page never shows a connection that was not there.
  let greeted = false;
  const early: (string | Buffer)[] = [];
  const toPage = (frame: string | Buffer) => (greeted ? page.send(frame) : early.push(frame));
  const fromHost = new HostStreamReader(
    MAX_SERVER_FRAME_BYTES,
    (line) => {
      const text = line.toString('utf8');
      const reply = greeted ? null : greetingReply(text);
      if (!reply) return toPage(text);
      const problem = greetingProblem(greeting.machine, reply);
      if (problem) {
        if (page.isOpen()) page.closeGone(problem);
        return bridge.end();
      }
      greeted = true;
      page.send(text);
      for (const frame of early.splice(0)) page.send(frame);
    },
    toPage,
    () => {
      log('a machine sent a frame over the size limit; its page is disconnected');
      page.terminate();
    },
  );
  let waiting: NodeJS.Timeout | null = null;
  bridge.output.on('data', (chunk: Buffer) => {
    if (!page.isOpen()) return;
    fromHost.push(chunk);
    if (page.backlogBytes() <= PAGE_BACKLOG_BYTES || waiting) return;
    bridge.output.pause();
    waiting = setInterval(() => {
      if (page.backlogBytes() > PAGE_BACKLOG_BYTES && page.isOpen()) return;
      clearInterval(waiting as NodeJS.Timeout);
      waiting = null;
      bridge.output.resume();
    }, BACKLOG_POLL_MS);
  });
  bridge.input.write(`${JSON.stringify(greetingFrame(greeting.version))}\n`);
  page.onFrame((data) => {
    if (data instanceof Error) return page.send(refusal(null, data.message));
    let frame;
    try {
      frame = RequestFrameSchema.parse(JSON.parse(data.toString()));
    } catch {
      return page.send(refusal(null, 'a request frame is JSON {t:"req", id, method, params}'));
    }
    const problem = pageRequestProblem(frame);
    if (problem) return page.send(refusal(frame.id === GREETING_ID ? null : frame.id, problem));
    bridge.input.write(`${JSON.stringify(frame)}\n`);
  });
  page.onClose(() => {
    if (waiting) clearInterval(waiting);
    // What the host still sends is dropped: ssh blocked on a full pipe would never see its end.
    bridge.output.resume();
    bridge.end();
  });
  void bridge.ended.then((reason) => {
    if (page.isOpen()) page.closeGone(reason ?? connectionEndedReason(greeting.machine));
  });
}
