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
