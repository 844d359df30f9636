import type { Agent } from '../../shared/entities/agents';
import { countOf } from '../../shared/plural';
import type { Bridge } from '../bridge';

/** Pushes the agent's branch (the Changes view's *Push branch*, and the palette's); says where it went. */
export async function pushAgentBranch(bridge: Bridge, agentId: string): Promise<string> {
  const result = await bridge.call('pushWorktreeBranch', { agentId });
  return `Pushed ${result.branch} to ${result.remote}.`;
}

/** Sends the comments on the agent's diff not sent yet to its inbox, as one message; says how many went. */
export async function sendDiffComments(bridge: Bridge, agent: Pick<Agent, 'id' | 'name'>): Promise<string> {
  const { comments } = await bridge.call('sendDiffComments', { agentId: agent.id });
  return `Sent ${countOf(comments.length, 'comment')} to ${agent.name}'s inbox as one message; it is woken with it when it is ready.`;
}
