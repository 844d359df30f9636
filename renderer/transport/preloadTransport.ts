import { MachineGoneFrameSchema } from '../../shared/machines';
import type { PreloadBridge } from '../../shared/preloadBridge';
import type { Carrier } from './frameTransport';

/** The page's numbers for its lines: unique in the page, whose bridges all share one preload. */
let lastLineId = 0;

/** The reason a machine's line ends with (the socket's stand-in for a WebSocket's close reason), or null for any other frame. */
function machineGoneReason(frame: string | Uint8Array): string | null {
  // Every frame passes here: only the one the host writes as it ends a line is parsed twice.
  if (typeof frame !== 'string' || !frame.startsWith('{"t":"machine-gone"')) return null;
  try {
    return MachineGoneFrameSchema.parse(JSON.parse(frame)).reason;
  } catch {
    return null;
  }
}

/**
 * The desktop window's carrier: one line through the preload per connection, to this machine's
 * host (machine null) or through it to another machine's, whose frames main passes on unread.
 * Only the events of this line reach it; a line to a machine that cannot be reached ends with
 * ssh's reason, as a machine's WebSocket closes with it.
 */
export function preloadCarrier(preload: PreloadBridge, machine: string | null): Carrier {
  return ({ opened, received, closed }) => {
    const id = ++lastLineId;
    let goneReason: string | null = null;
    const stop = preload.onLine((of, event) => {
      if (of !== id) return;
      if (event.t === 'open') return opened();
      if (event.t === 'frame') {
        const reason = machineGoneReason(event.frame);
        if (reason === null) received(event.frame);
        else goneReason = reason;
        return;
      }
      stop();
      closed(goneReason === null ? null : { kind: 'machine', reason: goneReason });
    });
    preload.openLine(id, machine);
    return {
      send: (frame) => preload.send(id, frame),
      close: () => {
        stop();
        preload.closeLine(id);
      },
    };
  };
}
