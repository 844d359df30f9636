import type { WakeMethodName } from '../../../shared/contract/wake';
import { speaksForSomeone, type AgentCaller, type Client, type Methods } from '../api';
import { fail } from '../errors';
import type { AgentWakeService } from './agentWakeService';
import type { WakeChannels } from './wakeChannels';

/** A wake channel is an agent's own: only a connection that identified as the agent holds one. */
function agentOf(client: Client): AgentCaller {
  if (client.caller.kind !== 'agent') fail('forbidden', "A wake channel belongs to an agent: only its MCP server (identified as the agent) opens one.");
  return client.caller;
}

/**
 * A person's wake (deliver an agent's pending messages now), and the agents' wake channels. The
 * log says when an MCP server first holds its agent's channel open, and when it lets go: whether
 * an agent's wakes are pushed or typed is otherwise seen nowhere.
 */
export function wakeMethods(wakes: AgentWakeService, channels: WakeChannels, log: (line: string) => void): Methods<WakeMethodName> {
  const holding = new WeakSet<Client>();
  return {
    wakeAgent: async ({ agentId }) => ({ agentId, delivered: await wakes.wakeNow(agentId) }),
    awaitChannelWake: ({ timeoutMs }, client) => {
      const agent = agentOf(client);
      const next = channels.next(agent.agentId, timeoutMs, client.signal, () => speaksForSomeone(client.caller));
      if (!holding.has(client)) {
        holding.add(client);
        log(`wake channel of ${agent.agentName} (${agent.agentId}) open: its wakes are pushed through its CLI's channel`);
        client.signal.addEventListener('abort', () => log(`wake channel of ${agent.agentName} (${agent.agentId}) closed: its wakes are typed`), { once: true });
      }
      return next;
    },
    reportChannelWake: (report, client) => {
      channels.report(agentOf(client).agentId, report.deliveryId, report);
      return { deliveryId: report.deliveryId };
    },
  };
}
