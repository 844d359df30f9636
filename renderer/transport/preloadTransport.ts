import type { ConnectionNotice, LineName, PreloadBridge } from '../../shared/preloadBridge';
import { refusalFrame } from '../../shared/protocol';
import type { ConnectionLoss } from '../../shared/connectionLoss';
import type { ClosableBridge, ConnectionState } from './bridgeTypes';
import { Listeners } from './listeners';
import { createRpcBridge } from './rpcBridge';

export interface PreloadLineOptions {
  /** Which of the window's lines: its own (null), or the one to a machine it follows. */
  line?: LineName;
  /**
   * Main loads this machine's window once it reached the host, so its own line starts open; a
   * line to another machine (a machine window's own, or one followed) starts connecting.
   */
  startsOpen?: boolean;
}

/** What main's notice says went: a machine (ssh's reason), a host stopped on purpose, or one that went without a word. */
function lossOf(notice: ConnectionNotice): ConnectionLoss | null {
  if (notice.state === 'open') return null;
  if (notice.reason) return { kind: 'machine', reason: notice.reason };
  return notice.stopped ? { kind: 'host-stopped' } : { kind: 'broke-off' };
}

/**
 * Electron: one of the window's lines, through the preload. Main says when its host went away and
 * when it is back (another machine's, with ssh's reason); only the frames and notices of this line
 * reach it. Closing a followed line tells main to stop following that machine.
 */
export function createPreloadBridge(preload: PreloadBridge, { line = null, startsOpen = line === null }: PreloadLineOptions = {}): ClosableBridge {
  const connection = new Listeners<ConnectionState>();
  let state: ConnectionState = startsOpen ? 'open' : 'connecting';
  let loss: ConnectionLoss | null = null;
  // A machine that stays unreachable for another reason is told again, so the page shows the latest.
  const stopNotices = preload.onConnection((notice, of) => {
    if (of !== line) return;
    const nextLoss = lossOf(notice);
    if (notice.state === state && JSON.stringify(nextLoss) === JSON.stringify(loss)) return;
    state = notice.state;
    loss = nextLoss;
    connection.emit(notice.state);
  });
  const { rpc, bridge } = createRpcBridge(
    (frame) => {
      preload.invoke(frame, line).then(
        (response) => rpc.receive(response),
        (error: unknown) => rpc.receive(refusalFrame(frame.id, 'internal', error instanceof Error ? error.message : String(error))),
      );
    },
    { onConnectionChange: (listener) => connection.add(listener), connectionState: () => state, loss: () => loss },
  );
  const stopPushes = preload.onPush((frame, of) => of === line && rpc.receive(frame));
  if (line !== null) preload.followMachine(line, true);
  return {
    ...bridge,
    close: () => {
      stopNotices();
      stopPushes();
      if (line !== null) preload.followMachine(line, false);
    },
  };
}
