import type { SessionMethodName } from '../../../shared/contract/sessions';
import type { Client, Methods } from '../api';
import { PerClient } from '../api';
import { fail } from '../errors';
import type { SessionService, TerminalAttachment } from './sessionService';
import { SentChunks } from './terminalStream';

/** Agent sessions: start, stop, type into and watch an agent's terminal; hooks report its state. */
export function sessionMethods(sessions: SessionService): Methods<SessionMethodName> {
  const attachments = new PerClient(
    () => new Map<string, TerminalAttachment>(),
    (byAgent) => {
      for (const attachment of byAgent.values()) attachment.detach();
      byAgent.clear();
    },
  );
  // The agents each client reported a size for: it stops being their viewer when it goes away.
  const viewed = new PerClient(
    (client) => ({ client, agentIds: new Set<string>() }),
    ({ client, agentIds }) => {
      for (const agentId of agentIds) sessions.viewerLeft(agentId, client);
    },
  );
  const view = (agentId: string, client: Client) => viewed.of(client).agentIds.add(agentId);
  return {
    startAgent: ({ agentId, resume }) => sessions.start(agentId, resume, true),
    stopAgent: ({ agentId }) => sessions.stop(agentId),
    restartAgent: ({ agentId, resume }) => sessions.restart(agentId, resume),
    writeAgentInput: ({ agentId, data }, client) => {
      sessions.write(agentId, data, client);
      return { agentId };
    },
    resizeAgent: ({ agentId, cols, rows, byLayout }, client) => {
      sessions.resize(agentId, { cols, rows }, client, byLayout === true);
      view(agentId, client);
      return { agentId };
    },
    attachAgentTerminal: async ({ agentId, cols, rows }, client) => {
      const byAgent = attachments.of(client);
      byAgent.get(agentId)?.detach();
      // Taken before the snapshot is made, so a detach (or a newer attach) meanwhile wins.
      const placeholder: TerminalAttachment = { detach: () => byAgent.delete(agentId), acknowledge: () => {} };
      byAgent.set(agentId, placeholder);
      // The client acknowledges the bytes it was sent; the stream counts characters.
      const sent = new SentChunks();
      view(agentId, client);
      const attached = await sessions.attach(
        agentId,
        (chunk) => {
          sent.sent(chunk.data);
          client.sendTerminal(chunk);
        },
        cols !== undefined && rows !== undefined ? { viewer: client, size: { cols, rows } } : undefined,
      );
      if (byAgent.get(agentId) !== placeholder || client.signal.aborted) {
        attached.detach();
        fail('invalid-state', 'The terminal was detached while it was being attached.');
      }
      byAgent.set(agentId, { detach: attached.detach, acknowledge: (bytes) => attached.acknowledge(sent.charsIn(bytes)) });
      return { agentId, snapshot: attached.data, at: attached.at, cols: attached.cols, rows: attached.rows };
    },
    detachAgentTerminal: ({ agentId }, client) => {
      const byAgent = attachments.of(client);
      byAgent.get(agentId)?.detach();
      byAgent.delete(agentId);
      sessions.viewerLeft(agentId, client);
      viewed.of(client).agentIds.delete(agentId);
      return { agentId };
    },
    ackAgentOutput: ({ agentId, bytes }, client) => {
      attachments.of(client).get(agentId)?.acknowledge(bytes);
      return { agentId };
    },
    readAgentScreen: async ({ agentId, styled }) => ({ agentId, ...(await sessions.screenText(agentId, styled === true)) }),
    reportAgentHook: ({ agentId, ...report }) => sessions.hook(agentId, report),
  };
}
