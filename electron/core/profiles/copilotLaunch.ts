import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { READ_ONLY_DROVER_TOOLS } from '../../../shared/droverTools';
import { AGENT_PROOF_ENV } from '../../common/agentEnv';
import { shellQuote } from '../../common/shellQuote';
import type { CliLaunch, CliLaunchInput } from './cliLaunch';

/**
 * The variables Drover's MCP server needs, each named in its config as a reference to the agent's
 * own (`${NAME}`): Copilot CLI 1.0.102 passes an MCP server the variables its config refers to,
 * which does not depend on what else of its env it passes on.
 */
const DROVER_MCP_ENV = ['DROVER_SOCKET', 'DROVER_PROJECT_ID', 'DROVER_AGENT_ID', AGENT_PROOF_ENV] as const;

/**
 * The hooks Drover registers (recorded from the real CLI): userPromptSubmitted when a prompt goes
 * in, agentStop when a turn ended, errorOccurred when a model call failed, notification (its
 * `permission_prompt`) when an approval dialog opens. Left out: sessionStart, which Copilot fires
 * with the first prompt, not when its prompt is drawn, and permissionRequest, which fires also for
 * a call a rule allows.
 */
const HOOK_EVENTS = ['userPromptSubmitted', 'agentStop', 'errorOccurred', 'notification'] as const;
const HOOK_TIMEOUT_S = 60;

/** Copilot CLI's MCP config (`mcp-config.json` format) with Drover's server and all its tools offered. */
export function copilotMcpConfig(drover: string): object {
  return {
    mcpServers: {
      drover: {
        type: 'local',
        command: drover,
        args: ['mcp'],
        env: Object.fromEntries(DROVER_MCP_ENV.map((name) => [name, `\${${name}}`])),
        tools: ['*'],
      },
    },
  };
}

/** The hooks file of Drover's plugin (`hooks/hooks.json`, Copilot's version 1 format): each hook names its event to `drover hook copilot`. */
export function copilotHooks(drover: string): object {
  const hook = (event: string) => [{ type: 'command', bash: `${shellQuote(drover)} hook copilot ${event}`, timeoutSec: HOOK_TIMEOUT_S }];
  return { version: 1, hooks: Object.fromEntries(HOOK_EVENTS.map((event) => [event, hook(event)])) };
}

/**
 * Copilot CLI's permission rules for Drover's tools (`--allow-tool`, `server(tool)`): the read-only
 * ones run without asking, every other one asks; with `preApprove` the whole server is allowed.
 */
function droverToolApproval(preApprove: boolean): string[] {
  const rules = preApprove ? ['drover'] : READ_ONLY_DROVER_TOOLS.map((tool) => `drover(${tool})`);
  return rules.map((rule) => `--allow-tool=${rule}`);
}

/**
 * GitHub Copilot CLI, per session and without touching the person's `~/.copilot`: Drover's MCP
 * server added for this session only (`--additional-mcp-config`, which augments the person's own
 * servers) with its tools approved as above, Drover's hooks as a plugin loaded for this session only
 * (`--plugin-dir`), no self-update in the middle of a session. A fresh conversation gets an id
 * Drover picks (`--session-id`), so a restart resumes it (`--resume`) without reading Copilot's files.
 */
export function copilotLaunch(input: CliLaunchInput): CliLaunch {
  const mcpConfig = path.join(input.agentDir, 'copilot-mcp-config.json');
  const plugin = path.join(input.agentDir, 'copilot-plugin');
  const conversationId = input.resumeId ? undefined : randomUUID();
  return {
    args: [
      '--no-auto-update',
      `--additional-mcp-config=@${mcpConfig}`,
      `--plugin-dir=${plugin}`,
      ...droverToolApproval(input.preApproveDroverTools),
      conversationId ? `--session-id=${conversationId}` : `--resume=${input.resumeId as string}`,
    ],
    ...(conversationId ? { conversationId } : {}),
    files: [
      { path: mcpConfig, content: JSON.stringify(copilotMcpConfig(input.drover), null, 2) },
      {
        path: path.join(plugin, '.plugin', 'plugin.json'),
        content: JSON.stringify({ name: 'drover', description: "Reports the agent's state to Drover", version: '1.0.0', hooks: 'hooks/hooks.json' }, null, 2),
      },
      { path: path.join(plugin, 'hooks', 'hooks.json'), content: JSON.stringify(copilotHooks(input.drover), null, 2) },
    ],
  };
}
