import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { READ_ONLY_DROVER_TOOLS } from '../../../shared/droverTools';
import { shellQuote } from '../../common/shellQuote';
import type { CliLaunch, CliLaunchInput } from './cliLaunch';

/**
 * Claude Code's per-session settings (`--settings`, merged over the person's own): hooks that report
 * its state to Drover, a status line that reports its plan quota, and Drover's read-only MCP tools
 * allowed without a prompt (`mcp__drover__<tool>` rules); Claude Code asks before the others, as
 * before its Bash and edits. With `preApprove` every Drover tool is allowed.
 *
 * Recorded from Claude Code 2.1.197: `Notification` fires for permission and MCP elicitation
 * dialogs, but also 60 s after each turn (`idle_prompt`) and after a login (`auth_success`), so only
 * the first two are registered; an API error or a rate limit ends the turn with `StopFailure`, not
 * `Stop`; a subagent's permission dialog shows on the main screen, so its `PermissionRequest` counts.
 */
export function claudeSettings(drover: string, preApprove: boolean, accountPaused: boolean): object {
  const report = (matcher?: string) => [{ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command: `${shellQuote(drover)} hook claude` }] }];
  return {
    hooks: {
      SessionStart: report(),
      UserPromptSubmit: report(),
      Stop: report(),
      StopFailure: report(),
      PermissionRequest: report(),
      Notification: report('permission_prompt|elicitation_dialog'),
    },
    statusLine: { type: 'command', command: `${shellQuote(drover)} hook claude-status-line` },
    permissions: { allow: preApprove ? ['mcp__drover__*'] : READ_ONLY_DROVER_TOOLS.map((tool) => `mcp__drover__${tool}`) },
    // Off, Claude's limit dialog offers the wait as a choice instead of continuing at the reset.
    ...(accountPaused ? { autoContinueAtUsageLimit: false } : {}),
  };
}

/**
 * A fresh conversation gets an id Drover picks (`--session-id`), so resuming never depends on a hook
 * having fired; a restart resumes only a conversation a prompt went into (Claude Code refuses to
 * resume one that never had a prompt, and to start a second time with the same id).
 */
export function claudeLaunch(input: CliLaunchInput): CliLaunch {
  const settings = path.join(input.agentDir, 'claude-settings.json');
  const mcpConfig = path.join(input.agentDir, 'mcp.json');
  const conversationId = input.resumeId ? undefined : randomUUID();
  return {
    args: ['--settings', settings, '--mcp-config', mcpConfig, ...(conversationId ? ['--session-id', conversationId] : ['--resume', input.resumeId as string])],
    ...(conversationId ? { conversationId } : {}),
    files: [
      { path: settings, content: JSON.stringify(claudeSettings(input.drover, input.preApproveDroverTools, input.accountPaused), null, 2) },
      { path: mcpConfig, content: JSON.stringify({ mcpServers: { drover: { type: 'stdio', command: input.drover, args: ['mcp'] } } }, null, 2) },
    ],
  };
}
