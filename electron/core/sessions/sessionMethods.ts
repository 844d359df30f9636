import type { Methods } from '../api';
import { PerClient } from '../api';
import type { SessionService, TerminalAttachment } from './sessionService';
import { SentChunks } from './terminalStream';

type SessionMethod =
  | 'startAgent'
  | 'stopAgent'
  | 'restartAgent'
  | 'writeAgentInput'
  | 'resizeAgent'
  | 'attachAgentTerminal'
  | 'detachAgentTerminal'
  | 'ackAgentOutput'
  | 'reportAgentHook';

/** Agent sessions: start, stop, type into and watch an agent's terminal; hooks report its state. */
export function sessionMethods(sessions: SessionService): Methods<SessionMethod> {
  const attachments = new PerClient(
    () => new Map<string, TerminalAttachment>(),
    (byAgent) => {
      for (const attachment of byAgent.values()) attachment.detach();
      byAgent.clear();
    },
  );
  return {
    startAgent: ({ agentId, resume }) => sessions.start(agentId, resume),
    stopAgent: ({ agentId }) => sessions.stop(agentId),
    restartAgent: ({ agentId, resume }) => sessions.restart(agentId, resume),
    writeAgentInput: ({ agentId, data }) => {
      sessions.write(agentId, data);
      return { agentId };
    },
    resizeAgent: ({ agentId, cols, rows }) => {
      sessions.resize(agentId, cols, rows);
      return { agentId };
    },
    attachAgentTerminal: ({ agentId }, client) => {
      const byAgent = attachments.of(client);
      byAgent.get(agentId)?.detach();
      // The client acknowledges the bytes it was sent; the stream counts characters.
      const sent = new SentChunks();
      const { scrollback, ...attachment } = sessions.attach(agentId, (chunk) => {
        sent.sent(chunk.data);
        client.sendTerminal(chunk);
      });
      byAgent.set(agentId, { detach: attachment.detach, acknowledge: (bytes) => attachment.acknowledge(sent.charsIn(bytes)) });
      return { agentId, scrollback };
    },
    detachAgentTerminal: ({ agentId }, client) => {
      const byAgent = attachments.of(client);
      byAgent.get(agentId)?.detach();
      byAgent.delete(agentId);
      return { agentId };
    },
    ackAgentOutput: ({ agentId, bytes }, client) => {
      attachments.of(client).get(agentId)?.acknowledge(bytes);
      return { agentId };
    },
    reportAgentHook: ({ agentId, ...report }) => sessions.hook(agentId, report),
  };
}
