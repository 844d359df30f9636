import type { PushFrame, RequestFrame, ResponseFrame } from './protocol';

/**
 * The only thing the Electron preload exposes to the page, under `window[PRELOAD_BRIDGE_KEY]`.
 * Frames are the same as on every other transport; main validates them.
 */
export interface PreloadBridge {
  invoke(frame: RequestFrame): Promise<ResponseFrame>;
  onPush(listener: (frame: PushFrame) => void): () => void;
}

export const PRELOAD_BRIDGE_KEY = 'droverBridge';

/** Names of the Electron IPC channels; kept here, away from zod, so the preload bundle stays small. */
export const IPC_INVOKE_CHANNEL = 'drover:invoke';
export const IPC_PUSH_CHANNEL = 'drover:push';
