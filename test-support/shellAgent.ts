import type { Agent } from '../shared/entities/agents';
import type { AgentProfileInput } from '../shared/entities/profiles';
import type { Turn } from '../shared/turns';
import type { Core } from '../electron/core/compose';
import { waitFor } from './waitFor';

/** A plain POSIX shell with a prompt the screen reading knows: each command it runs is a turn. */
export const SHELL_AGENT_PROFILE: AgentProfileInput = {
  id: 'sh',
  name: 'POSIX shell',
  command: '/bin/sh',
  args: [],
  env: { PS1: '$ ' },
  promptPattern: '\\$ ?$',
  busyPattern: null,
  needsInputPattern: null,
  usageLimitPattern: null,
  quietMs: 150,
  integration: 'none',
  wakeAs: 'shell-note',
};

export const turnsOf = async (core: Core, agent: Agent): Promise<Turn[]> => (await core.api.listTurns({ agentId: agent.id })).turns;

/** Starts a shell agent and waits for it at its prompt with its start checkpoint taken. */
export async function startShellAgent(core: Core, agent: Agent): Promise<Turn[]> {
  await core.api.startAgent({ agentId: agent.id, resume: false });
  await waitFor(async () => (await core.api.getWorkState({ projectId: agent.projectId })).sessions.find((s) => s.agentId === agent.id)?.state === 'ready', 'the shell at its prompt');
  return waitFor(async () => {
    const turns = await turnsOf(core, agent);
    return turns.length === 1 && turns;
  }, 'the start checkpoint');
}

/** Types a command as a terminal would (key by key, then Enter). */
export async function typeCommand(core: Core, agent: Agent, command: string): Promise<void> {
  for (const key of command) await core.api.writeAgentInput({ agentId: agent.id, data: key });
  await core.api.writeAgentInput({ agentId: agent.id, data: '\r' });
}

/** Types a command and waits for its turn's checkpoint `n`. */
export async function runTurn(core: Core, agent: Agent, command: string, n: number): Promise<Turn> {
  await typeCommand(core, agent, command);
  return waitFor(async () => (await turnsOf(core, agent)).find((turn) => turn.n === n), `checkpoint ${n} after ${command}`);
}
