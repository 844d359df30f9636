import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { READ_ONLY_DROVER_TOOLS } from '../../../shared/droverTools';
import { shellQuote } from '../../common/shellQuote';
import type { CliLaunch, CliLaunchInput, LaunchFile } from './cliLaunch';

/**
 * The hooks Drover registers with Gemini CLI 0.61.0 (recorded from the real CLI): BeforeAgent when
 * a prompt goes in, AfterAgent at the end of each completed turn, Notification (ToolPermission)
 * when an approval dialog opens. SessionStart is left out: it fires while a first-run dialog may
 * still be up. A denied approval and the usage-limit dialog fire nothing: the screen tells those.
 */
const HOOK_EVENTS = ['BeforeAgent', 'AfterAgent', 'Notification'] as const;

/** The person's Gemini folder: `$GEMINI_CLI_HOME/.gemini`, else `~/.gemini`. */
function userGeminiDir(env: NodeJS.ProcessEnv): string | null {
  const home = env.GEMINI_CLI_HOME || env.HOME;
  return home ? path.join(home, '.gemini') : null;
}

function readSettings(file: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Gemini CLI 0.61.0's policy (TOML) that lets Drover's read-only tools run without asking; its MCP
 * tools are named `mcp_<server>_<tool>`, and a tool no rule allows asks the person.
 */
export function geminiDroverPolicy(): string {
  const tools = READ_ONLY_DROVER_TOOLS.map((tool) => `mcp_drover_${tool}`);
  return `# Drover's read-only tools run without asking; its other tools ask (the project's setting can pre-approve them).
[[rule]]
toolName = ${JSON.stringify(tools)}
decision = "allow"
priority = 100
`;
}

/** How Drover's tools are approved: which policy file lets the read-only ones through, or every tool trusted. */
export type GeminiToolApproval = { preApprove: true } | { preApprove: false; policyFile: string; userPoliciesDir: string };

/** The person's settings with Drover's MCP server, the approval of its tools, and hooks added. */
export function geminiSettings(own: Record<string, unknown>, drover: string, approval: GeminiToolApproval): Record<string, unknown> {
  const hooks = { ...(own.hooks as Record<string, unknown[]> | undefined) };
  for (const event of HOOK_EVENTS) {
    hooks[event] = [...(hooks[event] ?? []), { hooks: [{ type: 'command', name: 'drover', command: `${shellQuote(drover)} hook gemini`, timeout: 60_000 }] }];
  }
  const general = (own.general as Record<string, unknown> | undefined) ?? {};
  return {
    ...own,
    // Gemini CLI 0.61.0's session cleanup deletes a resumed conversation along with the empty
    // start-up file resuming leaves (both share its short id): no cleanup in Drover's sessions.
    general: { ...general, sessionRetention: { ...(general.sessionRetention as object | undefined), enabled: false } },
    mcpServers: { ...(own.mcpServers as Record<string, unknown> | undefined), drover: { command: drover, args: ['mcp'], ...(approval.preApprove ? { trust: true } : {}) } },
    // Policy paths replace the user's own policies folder, so it is named with Drover's file.
    ...(approval.preApprove ? {} : { policyPaths: [...((own.policyPaths as string[] | undefined) ?? [approval.userPoliciesDir]), approval.policyFile] }),
    hooks,
  };
}

/**
 * Gemini CLI reads a per-session settings file only as a system file owned by root, so Drover gives
 * each agent its own Gemini home instead (`GEMINI_CLI_HOME`, private to the agent): its
 * `.gemini/settings.json` is the person's own settings plus Drover's MCP server and hooks, and
 * everything else in it links back to the person's `~/.gemini` (credentials, history, sessions).
 * The person's files are never written; trust decisions go to their own trusted-folders file.
 */
export function geminiLaunch(input: CliLaunchInput): CliLaunch {
  const own = userGeminiDir(input.env);
  const overlay = path.join(input.agentDir, 'gemini-home');
  const policyFile = path.join(input.agentDir, 'gemini-policies', 'drover.toml');
  const approval: GeminiToolApproval = input.preApproveDroverTools
    ? { preApprove: true }
    : { preApprove: false, policyFile, userPoliciesDir: path.join(overlay, '.gemini', 'policies') };
  const files: LaunchFile[] = [
    {
      path: path.join(overlay, '.gemini', 'settings.json'),
      content: JSON.stringify(geminiSettings(own ? readSettings(path.join(own, 'settings.json')) : {}, input.drover, approval), null, 2),
    },
    ...(approval.preApprove ? [] : [{ path: policyFile, content: geminiDroverPolicy() }]),
  ];
  if (own && fs.existsSync(own)) {
    for (const entry of fs.readdirSync(own)) {
      if (entry !== 'settings.json') files.push({ path: path.join(overlay, '.gemini', entry), linkTo: path.join(own, entry) });
    }
  }
  const conversationId = input.resumeId ? undefined : randomUUID();
  return {
    args: conversationId ? ['--session-id', conversationId] : ['--resume', input.resumeId as string],
    ...(conversationId ? { conversationId } : {}),
    files,
    env: {
      GEMINI_CLI_HOME: overlay,
      ...(own && !input.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH ? { GEMINI_CLI_TRUSTED_FOLDERS_PATH: path.join(own, 'trustedFolders.json') } : {}),
    },
  };
}
