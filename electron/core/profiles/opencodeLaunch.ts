import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { READ_ONLY_DROVER_TOOLS } from '../../../shared/droverTools';
import type { CliLaunch, CliLaunchInput } from './cliLaunch';

/**
 * The events of OpenCode 1.18.33's bus that Drover's plugin reports (recorded from the real CLI):
 * the main session going idle, a permission dialog opening, a failed turn, and `session.status`
 * only when it waits to retry a call (`retry`, with the instant of the next attempt: a 429's
 * `retry-after`) and when it then goes on by itself (the `busy` that follows a `retry`); a prompt
 * going in is its `chat.message` hook. Every other event (streamed message parts among them, many a
 * second) stays inside OpenCode; any other `session.status` busy too, which it also sends while the
 * session is at rest.
 */
export const OPENCODE_REPORTED_EVENTS = ['session.idle', 'permission.asked', 'session.error', 'session.status'] as const;

/**
 * Drover's OpenCode plugin (a local ES module, loaded through the config's `plugin` list). It runs
 * `drover hook opencode` with a small JSON on stdin for each prompt that goes in (`chat.message`)
 * and each event above, for the main session only: a subagent's session (it has a parent) reports
 * nothing of its own but its permission dialog, which shows on the main screen.
 */
export function opencodePlugin(drover: string): string {
  return `// Written by Drover for its agent: reports OpenCode's state to Drover (\`drover hook opencode\`).
import { spawn } from 'node:child_process';

const DROVER = ${JSON.stringify(drover)};
const REPORTED = new Set(${JSON.stringify(OPENCODE_REPORTED_EVENTS)});

function report(payload) {
  try {
    const child = spawn(DROVER, ['hook', 'opencode'], { stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', () => {});
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  } catch {
    // Drover is gone: OpenCode goes on undisturbed.
  }
}

export const DroverPlugin = async () => {
  const subagents = new Set();
  const retrying = new Set();
  return {
    'chat.message': async (input, output) => {
      if (subagents.has(input.sessionID)) return;
      const prompt = (output.parts ?? []).filter((part) => part.type === 'text' && !part.synthetic).map((part) => part.text).join('\\n');
      report({ event: 'chat.message', session_id: input.sessionID, prompt });
    },
    event: async ({ event }) => {
      const properties = event.properties ?? {};
      if (event.type === 'session.created' && properties.info?.parentID) subagents.add(properties.info.id);
      if (!REPORTED.has(event.type)) return;
      const sessionID = properties.sessionID ?? properties.info?.id;
      if (event.type !== 'permission.asked' && subagents.has(sessionID)) return;
      if (event.type === 'session.status') {
        if (properties.status?.type === 'retry') {
          retrying.add(sessionID);
          report({ event: event.type, session_id: sessionID, status: 'retry', message: properties.status.message, next: properties.status.next });
        } else if (properties.status?.type === 'busy' && retrying.delete(sessionID)) {
          report({ event: event.type, session_id: sessionID, status: 'busy' });
        }
        return;
      }
      report({ event: event.type, session_id: sessionID, error: properties.error?.name, message: properties.error?.data?.message });
    },
  };
};
`;
}

type Config = Record<string, unknown>;

function asObject(value: unknown): Config {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Config) : {};
}

/** The person's own OPENCODE_CONFIG_CONTENT, if it holds a JSON object. */
function ownConfigContent(env: NodeJS.ProcessEnv): Config {
  try {
    return asObject(JSON.parse(env.OPENCODE_CONFIG_CONTENT ?? ''));
  } catch {
    return {};
  }
}

/**
 * How OpenCode approves Drover's tools. Its MCP tools are named `<server>_<tool>` and run without
 * asking unless a permission rule says `ask`; the last rule that matches a tool decides. So every
 * Drover tool asks except the read-only ones, or (pre-approved) none asks.
 */
function droverPermissions(preApprove: boolean): Config {
  if (preApprove) return { 'drover_*': 'allow' };
  return { 'drover_*': 'ask', ...Object.fromEntries(READ_ONLY_DROVER_TOOLS.map((tool) => [`drover_${tool}`, 'allow'])) };
}

/**
 * The config Drover adds for its agent, over the person's: Drover's MCP server (a local one, which
 * OpenCode starts with its own env, so the DROVER_* variables reach it), its tools' permissions,
 * and Drover's plugin. A permission given as one word for every tool stays the default (`*`).
 */
export function opencodeConfig(own: Config, drover: string, pluginFile: string, preApprove: boolean): Config {
  const permission = typeof own.permission === 'string' ? { '*': own.permission } : asObject(own.permission);
  const plugins = Array.isArray(own.plugin) ? own.plugin : [];
  return {
    ...own,
    mcp: { ...asObject(own.mcp), drover: { type: 'local', command: [drover, 'mcp'], enabled: true } },
    permission: { ...permission, ...droverPermissions(preApprove) },
    plugin: [...plugins, pathToFileURL(pluginFile).href],
  };
}

/**
 * OpenCode, per session and without touching the person's config: `OPENCODE_CONFIG_CONTENT` (the
 * config layer OpenCode merges over the person's files) holds the person's own such content plus
 * Drover's part above. OpenCode picks a fresh conversation's id itself, so the plugin reports it
 * with the first prompt, and a restart resumes it (`--session`).
 */
export function opencodeLaunch(input: CliLaunchInput): CliLaunch {
  const pluginFile = path.join(input.agentDir, 'opencode-plugin', 'drover.js');
  const config = opencodeConfig(ownConfigContent(input.env), input.drover, pluginFile, input.preApproveDroverTools);
  return {
    args: input.resumeId ? ['--session', input.resumeId] : [],
    files: [{ path: pluginFile, content: opencodePlugin(input.drover) }],
    env: { OPENCODE_CONFIG_CONTENT: JSON.stringify(config) },
  };
}
