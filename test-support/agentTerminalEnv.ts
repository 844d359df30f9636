import fs from 'node:fs';
import type { Agent } from '../shared/entities/agents';
import type { DroverHost } from '../electron/host/host';
import { waitFor } from './waitFor';

/**
 * The env of an agent's running terminal (read from /proc, as it is), which its own tools (an MCP
 * server its CLI starts, the `drover` command) inherit: DROVER_AGENT_ID with the session's proof.
 * Between the PTY's fork and its exec, /proc shows the host's own env, so it waits for the agent's.
 */
export async function agentTerminalEnv(host: DroverHost, agent: Agent): Promise<Record<string, string>> {
  const session = (await host.core.api.getWorkState({ projectId: agent.projectId })).sessions.find((s) => s.agentId === agent.id);
  if (!session?.pid || session.state === 'exited') throw new Error(`${agent.name} has no running session`);
  const environ = `/proc/${session.pid}/environ`;
  return waitFor(() => {
    const entries = fs.readFileSync(environ, 'utf8').split('\0').filter(Boolean);
    const env = Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
    return env.DROVER_AGENT_ID === agent.id && env;
  }, `${agent.name}'s terminal to start with its own env`);
}
