import type { AgentProfileInput } from '../shared/entities/profiles';
import { RpcClient } from '../shared/rpcClient';
import { decodeStreamFrame } from '../shared/streamFrames';
import { openDoorSocket } from '../test-support/doorSocket';
import type { ServeProcess } from '../test-support/droverProcess';

export interface BenchClient {
  rpc: RpcClient;
  /** Where terminal chunks go; each flood points it at its own counter. */
  onTerminal: (data: Uint8Array, agentId: string) => void;
  /** Resolves once the agent's session has exited, so the host is quiet before the next round. */
  untilExited(agentId: string): Promise<void>;
  close(): void;
}

/**
 * A WebSocket client of a `drover serve`, as the browser's transport is (binary stream frames):
 * of this machine's host, or (`apiPath` /machines/NAME/api) of another machine's, as its page is.
 */
export async function connect(serve: ServeProcess, apiPath = '/api'): Promise<BenchClient> {
  const exited = new Set<string>();
  const exitWaiters = new Map<string, () => void>();
  const client: BenchClient = {
    rpc: new RpcClient((frame) => ws.send(JSON.stringify(frame)), {
      onTerminal: (chunk) => client.onTerminal(chunk.data, chunk.agentId),
      onEvent: (event) => {
        if (event.name !== 'agentSessionChanged' || event.session.state !== 'exited') return;
        exited.add(event.session.agentId);
        exitWaiters.get(event.session.agentId)?.();
      },
    }),
    onTerminal: () => {},
    untilExited: (agentId) => new Promise((resolve) => (exited.has(agentId) ? resolve() : exitWaiters.set(agentId, resolve))),
    close: () => ws.close(),
  };
  const ws = await openDoorSocket(serve.url, {
    path: apiPath,
    onMessage: (data, isBinary) => client.rpc.receive(isBinary ? decodeStreamFrame(data as Buffer) : JSON.parse(data.toString())),
  });
  return client;
}

/** A profile that runs a plain command, with no state patterns (nothing to detect). */
export function commandProfile(id: string, command: string, args: string[]): AgentProfileInput {
  return { id, name: id, command, args, env: {}, promptPattern: null, busyPattern: null, needsInputPattern: null, usageLimitPattern: null, quietMs: 500, integration: 'none', wakeAs: 'prompt' };
}
