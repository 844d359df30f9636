import { AGENT_PROOF_ENV } from '../common/agentEnv';
import { Refusal } from './usage';

/** What a tool in an agent terminal hands Drover to speak for that agent (identifyAgent). */
export interface AgentCredentials {
  agentId: string;
  proof: string;
}

/**
 * The agent this process speaks for: DROVER_AGENT_ID with its session's proof, as Drover put them
 * in the agent terminal's env; null outside one (the person's own shell speaks for the person).
 * An agent id without the proof is refused rather than taken on trust.
 */
export function agentCredentials(env: NodeJS.ProcessEnv): AgentCredentials | null {
  const agentId = env.DROVER_AGENT_ID;
  if (!agentId) return null;
  const proof = env[AGENT_PROOF_ENV];
  if (!proof) {
    throw new Refusal(
      `DROVER_AGENT_ID is set but ${AGENT_PROOF_ENV} is not: only the agent's own terminal speaks for it. Unset DROVER_AGENT_ID to act as yourself (--agent NAME names the owner of a task).`,
    );
  }
  return { agentId, proof };
}
