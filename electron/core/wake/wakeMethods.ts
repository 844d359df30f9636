import type { WakeMethodName } from '../../../shared/contract/wake';
import type { AgentCaller, Client, Methods } from '../api';
import { fail } from '../errors';
import type { AgentWakeService } from './agentWakeService';
import type { WakeChannels } from './wakeChannels';

/** A wake channel is an agent's own: only a connection that identified as the agent holds one. */
function agentOf(client: Client): AgentCaller {
  if (client.caller.kind !== 'agent') fail('forbidden', "A wake channel belongs to an agent: only its MCP server (identified as the agent) opens one.");
  return client.caller;
}

/** A person's wake (deliver an agent's pending messages now), and the agents' wake channels. */
export function wakeMethods(wakes: AgentWakeService, channels: WakeChannels): Methods<WakeMethodName> {
  return {
    wakeAgent: async ({ agentId }) => ({ agentId, delivered: await wakes.wakeNow(agentId) }),
    awaitChannelWake: ({ timeoutMs }, client) => channels.next(agentOf(client).agentId, timeoutMs, client.signal),
    reportChannelWake: (report, client) => {
      channels.report(agentOf(client).agentId, report.deliveryId, report);
      return { deliveryId: report.deliveryId };
    },
  };
}
