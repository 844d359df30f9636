import net from 'node:net';
import type { MachineLineOpener } from '../../shared/machines';
import type { LineEvent } from '../../shared/preloadBridge';
import { MAX_SERVER_FRAME_BYTES } from '../../shared/protocol';
import { HostStreamReader } from '../wire/socketRecords';

/**
 * One page's lines to the host's local socket: a connection each, the page's frames written as the
 * socket's lines, and the socket's lines and binary records passed to the page as they come, each
 * unread (the host validates what the page sends, the page what the host sends). A line to another
 * machine opens with the line that asks the host to serve it as the browser door serves a
 * machine's page. Plain Node: main keeps one per page, the e2e suite's stand-in for Electron's
 * IPC one per test page.
 */
export class PageLines {
  private readonly lines = new Map<number, net.Socket>();

  constructor(
    private readonly socketPath: string,
    private readonly tell: (id: number, event: LineEvent) => void,
  ) {}

  open(id: number, machine: string | null): void {
    if (this.lines.has(id)) return this.tell(id, { t: 'closed' });
    const socket = net.connect(this.socketPath);
    this.lines.set(id, socket);
    const reader = new HostStreamReader(
      MAX_SERVER_FRAME_BYTES,
      (line) => this.tell(id, { t: 'frame', frame: line.toString('utf8') }),
      // A copy of its own: a small record shares its memory with others, all of which IPC would copy.
      (record) => this.tell(id, { t: 'frame', frame: new Uint8Array(record) }),
      () => socket.destroy(),
    );
    socket.once('connect', () => {
      const opener: MachineLineOpener | null = machine === null ? null : { t: 'machine-line', machine };
      if (opener) socket.write(`${JSON.stringify(opener)}\n`);
      this.tell(id, { t: 'open' });
    });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
    socket.on('error', () => socket.destroy());
    socket.once('close', () => {
      if (this.lines.get(id) === socket) this.lines.delete(id);
      this.tell(id, { t: 'closed' });
    });
  }

  /** One frame of the page; a frame that would not stay one line is not sent. */
  send(id: number, frame: string): void {
    if (!frame.includes('\n')) this.lines.get(id)?.write(`${frame}\n`);
  }

  close(id: number): void {
    this.lines.get(id)?.end();
    this.lines.delete(id);
  }

  /** The page went: every line of it ends; the host sees its clients go, and its work runs on. */
  closeAll(): void {
    for (const id of [...this.lines.keys()]) this.close(id);
  }
}
