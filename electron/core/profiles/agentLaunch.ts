import path from 'node:path';
import type { Agent } from '../../../shared/entities/agents';
import type { AgentIntegration, AgentProfile } from '../../../shared/entities/profiles';
import { AGENT_PROOF_ENV } from '../../common/agentEnv';
import { claudeLaunch } from './claudeLaunch';
import type { CliLaunch, CliLaunchInput, LaunchFile } from './cliLaunch';
import { codexLaunch } from './codexLaunch';
import { expandCommand, findExecutable } from './commandLookup';
import { copilotLaunch } from './copilotLaunch';
import { geminiLaunch } from './geminiLaunch';
import { opencodeLaunch } from './opencodeLaunch';

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
  /** The session's secret, by which its tools prove they speak for this agent (never on screen or in argv). */
  proof: string;
  /** The project's setting: the agent CLI runs every Drover tool without asking (see CliLaunchInput). */
  preApproveDroverTools: boolean;
  /** The person paused the account this agent spends (see CliLaunchInput). */
  accountPaused: boolean;
  baseEnv: NodeJS.ProcessEnv;
}

export interface LaunchPlan {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** Config files the agent CLI is pointed at (hooks, Drover's MCP server); the user's own config is never touched. */
  files: LaunchFile[];
  /** The conversation id Drover chose up front, where the CLI takes one. */
  conversationId: string | null;
}

const INTEGRATIONS: Record<AgentIntegration, ((input: CliLaunchInput) => CliLaunch) | null> = {
  claude: claudeLaunch,
  codex: codexLaunch,
  gemini: geminiLaunch,
  copilot: copilotLaunch,
  opencode: opencodeLaunch,
  none: null,
};

/** How to start an agent: its command, Drover's integration flags and the env an agent terminal gets. */
export function planLaunch(input: LaunchInput): LaunchPlan {
  const { profile, agent } = input;
  const file = findExecutable(expandCommand(profile.command, input.baseEnv), input.baseEnv);
  if (!file) throw new Error(profile.unavailableReason ?? `${profile.command} is not on PATH`);
  const integration = INTEGRATIONS[profile.integration]?.({
    drover: path.join(input.shimDir, 'drover'),
    agentDir: input.agentDir,
    resumeId: input.resumeId,
    env: input.baseEnv,
    preApproveDroverTools: input.preApproveDroverTools,
    accountPaused: input.accountPaused,
  });
  const args = [...profile.args, ...(integration?.args ?? [])];
  const files = integration?.files ?? [];
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.baseEnv)) if (value !== undefined) env[key] = value;
  Object.assign(env, integration?.env, profile.env, {
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    DROVER_SOCKET: input.socketPath,
    DROVER_PROJECT_ID: agent.projectId,
    DROVER_AGENT_ID: agent.id,
    DROVER_AGENT_NAME: agent.name,
    [AGENT_PROOF_ENV]: input.proof,
    PATH: [input.shimDir, input.baseEnv.PATH].filter(Boolean).join(path.delimiter),
  });
  return { file, args, env, files, conversationId: integration?.conversationId ?? null };
}
