import type { Client, CoreApi } from '../electron/core/api';

/** What a test does with an agent's terminal stream once attached. */
export interface TerminalOutput {
  /** What the host's mirror of the terminal held when it attached; the chunks follow it. */
  snapshot?(text: string): void;
  chunk(data: string): void;
}

export interface AttachedTerminal {
  /** The client it attached as: what it types or resizes through the core's methods comes from this viewer. */
  client: Client;
  detach(): void;
}

/**
 * Attaches to an agent's terminal as a window does, through the core's methods and as a client of
 * its own: the snapshot, then every chunk after it in order (chunks sent while the snapshot was made
 * follow it), each acknowledged once taken in, so flow control holds as it does for a window.
 */
export async function attachTerminal(api: CoreApi, agentId: string, output: TerminalOutput, size?: { cols: number; rows: number }): Promise<AttachedTerminal> {
  const connection = new AbortController();
  const early: string[] = [];
  let take: ((data: string) => void) | null = null;
  const client: Client = {
    signal: connection.signal,
    caller: { kind: 'person' },
    identifyAs: () => {
      throw new Error('a test attaching a terminal speaks for the person');
    },
    sendTaskOutput: () => {},
    sendTerminal: (chunk) => (take ? take(chunk.data) : early.push(chunk.data)),
  };
  const attached = await api.attachAgentTerminal({ agentId, ...size }, client);
  take = (data) => {
    output.chunk(data);
    const bytes = Buffer.byteLength(data);
    if (bytes > 0) void api.ackAgentOutput({ agentId, bytes }, client);
  };
  output.snapshot?.(attached.snapshot);
  early.splice(0).forEach(take);
  // As a connection that closes: the core releases what it set up for this client.
  return { client, detach: () => connection.abort() };
}
