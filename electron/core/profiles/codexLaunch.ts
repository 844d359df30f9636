import { createHash } from 'node:crypto';
import { READ_ONLY_DROVER_TOOLS } from '../../../shared/droverTools';
import { AGENT_PROOF_ENV } from '../../common/agentEnv';
import { shellQuote } from '../../common/shellQuote';
import type { CliLaunch, CliLaunchInput } from './cliLaunch';

/** Where Codex says `-c` hooks come from, in the keys of its hook trust list. */
const FLAG_HOOKS_SOURCE = '/<session-flags>/config.toml';
const HOOK_TIMEOUT_S = 60;

/**
 * The hooks Drover registers, by Codex's event name and its snake_case key. Codex's state comes from
 * its own status reports on the terminal (OSC 7501: working, blocked, done, error); the hooks add
 * the conversation id, which Codex reports from the first prompt on.
 */
const HOOKS = [
  ['UserPromptSubmit', 'user_prompt_submit'],
  ['Stop', 'stop'],
  ['PermissionRequest', 'permission_request'],
] as const;

/** TOML accepts JSON's string escapes, so a JSON string is a TOML basic string. */
const toml = (text: string) => JSON.stringify(text);

/**
 * The hash Codex 0.171.0 trusts a hook by: sha256 over the canonical JSON (sorted keys, no spaces)
 * of the hook group. With it Codex runs Drover's hooks without its "Hooks need review" dialog.
 */
export function codexHookHash(event: string, command: string, timeout: number): string {
  const canonical = JSON.stringify({ event_name: event, hooks: [{ async: false, command, timeout, type: 'command' }] });
  return `sha256:${createHash('sha256').update(canonical).digest('hex')}`;
}

/**
 * How Codex 0.171.0 approves Drover's tools: every call asks (`default_tools_approval_mode="prompt"`)
 * except the read-only tools (`tools.<name>.approval_mode="approve"`); with `preApprove` none asks.
 */
function droverToolApproval(preApprove: boolean): string[] {
  if (preApprove) return ['-c', 'mcp_servers.drover.default_tools_approval_mode="approve"'];
  return [
    '-c',
    'mcp_servers.drover.default_tools_approval_mode="prompt"',
    ...READ_ONLY_DROVER_TOOLS.flatMap((tool) => ['-c', `mcp_servers.drover.tools.${tool}.approval_mode="approve"`]),
  ];
}

/**
 * Codex CLI, per session and without touching the person's config: no background daemon (it would
 * start MCP servers with another agent's env), Drover's MCP server with the DROVER_* env passed
 * through (Codex gives MCP servers only a few variables) and its tools approved as above, and the
 * hooks above, pre-trusted. A restart resumes the last conversation id Drover learnt.
 */
export function codexLaunch(input: CliLaunchInput): CliLaunch {
  const command = `${shellQuote(input.drover)} hook codex`;
  const hookFlags = HOOKS.flatMap(([event]) => ['-c', `hooks.${event}=[{hooks=[{type="command",command=${toml(command)},timeout=${HOOK_TIMEOUT_S}}]}]`]);
  const trust = HOOKS.map(([, key]) => `${toml(`${FLAG_HOOKS_SOURCE}:${key}:0:0`)}={trusted_hash=${toml(codexHookHash(key, command, HOOK_TIMEOUT_S))}}`);
  return {
    args: [
      '--no-daemon',
      '-c',
      `mcp_servers.drover.command=${toml(input.drover)}`,
      '-c',
      'mcp_servers.drover.args=["mcp"]',
      '-c',
      `mcp_servers.drover.env_vars=["DROVER_SOCKET","DROVER_PROJECT_ID","DROVER_AGENT_ID","${AGENT_PROOF_ENV}"]`,
      ...droverToolApproval(input.preApproveDroverTools),
      ...hookFlags,
      '-c',
      `hooks.state={${trust.join(',')}}`,
      ...(input.resumeId ? ['resume', input.resumeId] : []),
    ],
    files: [],
  };
}
