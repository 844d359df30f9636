import path from 'node:path';
import type { Agent, AgentProfile } from '../../../shared/entities';
import { expandCommand, findExecutable } from './commandLookup';
import { shellQuote } from '../../../shared/shellQuote';

export interface LaunchInput {
  profile: AgentProfile;
  agent: Agent;
  socketPath: string;
  /** Folder holding the `drover` shim, put first on the agent's PATH. */
  shimDir: string;
  /** Private folder of this agent for generated config files. */
  agentDir: string;
  /** The agent CLI's own conversation id to resume, if any. */
  resumeId: string | null;
  baseEnv: NodeJS.ProcessEnv;
}

export interface LaunchPlan {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** Config files the agent CLI is pointed at (hooks, Drover's MCP server); the user's own config is never touched. */
  files: { path: string; content: string }[];
}

/** Claude Code's per-session settings: its hooks report prompt / stop / notification to Drover. */
function claudeSettings(drover: string): string {
  const hook = (event: string) => [{ hooks: [{ type: 'command', command: `${shellQuote(drover)} hook ${event}` }] }];
  return JSON.stringify(
    { hooks: { SessionStart: hook('session-start'), UserPromptSubmit: hook('prompt-submitted'), Stop: hook('stopped'), Notification: hook('needs-input') } },
    null,
    2,
  );
}

/** How to start an agent: its command, Drover's integration flags and the env an agent terminal gets. */
export function planLaunch(input: LaunchInput): LaunchPlan {
  const { profile, agent } = input;
  const file = findExecutable(expandCommand(profile.command, input.baseEnv), input.baseEnv);
  if (!file) throw new Error(profile.unavailableReason ?? `${profile.command} is not on PATH`);
  const drover = path.join(input.shimDir, 'drover');
  const args = [...profile.args];
  const files: LaunchPlan['files'] = [];
  if (profile.integration === 'claude-hooks') {
    const settings = path.join(input.agentDir, 'claude-settings.json');
    const mcpConfig = path.join(input.agentDir, 'mcp.json');
    files.push({ path: settings, content: claudeSettings(drover) });
    files.push({ path: mcpConfig, content: JSON.stringify({ mcpServers: { drover: { command: drover, args: ['mcp'] } } }, null, 2) });
    args.push('--settings', settings, '--mcp-config', mcpConfig);
    if (input.resumeId) args.push('--resume', input.resumeId);
  } else if (profile.integration === 'codex-notify') {
    args.push(
      '-c',
      `notify=${JSON.stringify([drover, 'hook', 'codex-notify'])}`,
      '-c',
      `mcp_servers.drover.command=${JSON.stringify(drover)}`,
      '-c',
      'mcp_servers.drover.args=["mcp"]',
    );
    if (input.resumeId) args.push('resume', input.resumeId);
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.baseEnv)) if (value !== undefined) env[key] = value;
  Object.assign(env, profile.env, {
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    DROVER_SOCKET: input.socketPath,
    DROVER_PROJECT_ID: agent.projectId,
    DROVER_AGENT_ID: agent.id,
    DROVER_AGENT_NAME: agent.name,
    PATH: [input.shimDir, input.baseEnv.PATH].filter(Boolean).join(path.delimiter),
  });
  return { file, args, env, files };
}
