import { DOOR_CLOSE, DOOR_HANDSHAKE_MS } from '../../shared/browserDoor';
import type { ConnectionLoss } from '../../shared/connectionLoss';
import { MACHINE_GONE_CLOSE_CODE } from '../../shared/machines';
import { DroverRequestError } from '../../shared/protocol';
import type { Carrier } from './frameTransport';
import { PageHandshake } from './pageHandshake';

/** What a close with this code says happened; null when it says nothing (no close frame: the other end vanished). */
function lossOfClose({ code, reason }: CloseEvent): ConnectionLoss | null {
  if (code === MACHINE_GONE_CLOSE_CODE && reason) return { kind: 'machine', reason };
  if (code === DOOR_CLOSE.serveEnded.code) return { kind: 'serve-ended' };
  if (code === DOOR_CLOSE.hostStopped.code) return { kind: 'host-stopped' };
  if (code === DOOR_CLOSE.refused.code) return { kind: 'refused', why: 'token-refused' };
  return null;
}

/**
 * The browser's carrier: one WebSocket per connection, carrying JSON text frames and binary frames
 * for terminal and task output (their bytes go to xterm undecoded). Each connection starts with the
 * door's handshake (pageHandshake.ts) with the key the page proves itself with (doorKey.ts); a
 * server that does not prove it is the door gets nothing more, and the connection ends refused, as
 * it does when the page has no key or the door refuses it.
 */
export function webSocketCarrier(url: string, key: Uint8Array | null): Carrier {
  return ({ opened, received, closed }) => {
    if (!key) {
      closed({ kind: 'refused', why: 'no-token' });
      return { send: () => undefined, close: () => undefined };
    }
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    const handshake = new PageHandshake(key);
    let letIn = false;
    let refusal: ConnectionLoss | null = null;
    // A server that accepts the socket and says nothing is not the door either: try again later.
    const silence = window.setTimeout(() => ws.close(), DOOR_HANDSHAKE_MS);
    ws.onopen = () => ws.send(handshake.hello());
    ws.onmessage = (message: MessageEvent<unknown>) => {
      if (letIn) {
        if (message.data instanceof ArrayBuffer) received(new Uint8Array(message.data));
        else if (typeof message.data === 'string') received(message.data);
        return;
      }
      const step = handshake.receive(message.data);
      if (step === 'not-the-door') {
        refusal = { kind: 'refused', why: 'not-the-door' };
        ws.close();
      } else if (step === 'let-in') {
        window.clearTimeout(silence);
        letIn = true;
        opened();
      } else {
        ws.send(step.send);
      }
    };
    ws.onclose = (event) => {
      window.clearTimeout(silence);
      closed(refusal ?? lossOfClose(event));
    };
    return {
      send: (frame) => {
        if (ws.readyState !== WebSocket.OPEN) throw new DroverRequestError('internal', 'Not connected to Drover');
        ws.send(frame);
      },
      close: () => ws.close(),
    };
  };
}
