import fs from 'node:fs';
import type { Agent } from '../shared/entities';
import type { DroverHost } from '../electron/host/host';

/**
 * The env of an agent's running terminal (read from /proc, as it is), which its own tools (an MCP
 * server its CLI starts, the `drover` command) inherit: DROVER_AGENT_ID with the session's proof.
 */
export async function agentTerminalEnv(host: DroverHost, agent: Agent): Promise<Record<string, string>> {
  const session = (await host.core.api.getWorkState({ projectId: agent.projectId })).sessions.find((s) => s.agentId === agent.id);
  if (!session?.pid || session.state === 'exited') throw new Error(`${agent.name} has no running session`);
  const entries = fs.readFileSync(`/proc/${session.pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
}
