import { connectToDrover } from './socketClient';

type HookEvent = 'prompt-submitted' | 'stopped' | 'needs-input' | 'session-start';

const EVENTS: Record<string, HookEvent> = {
  'prompt-submitted': 'prompt-submitted',
  stopped: 'stopped',
  'needs-input': 'needs-input',
  'session-start': 'session-start',
};

function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    let text = '';
    process.stdin.setEncoding('utf8');
    process.stdin.on('data', (chunk: string) => (text += chunk));
    process.stdin.on('end', () => resolve(text));
    process.stdin.on('error', () => resolve(text));
  });
}

function parseObject(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export interface HookReport {
  event: HookEvent;
  externalSessionId?: string;
}

/**
 * What a hook invocation reports: Claude Code's hooks pass JSON on stdin (with `session_id`);
 * Codex's notify program gets JSON as its last argument (`type`, `thread-id`). Null when there is
 * nothing to report.
 */
export function parseHook(name: string, stdin: string, payloadArg: string | undefined): HookReport | null {
  const payload = parseObject(name === 'codex-notify' ? payloadArg : stdin);
  const event = name === 'codex-notify' ? (payload.type === 'agent-turn-complete' ? 'stopped' : undefined) : EVENTS[name];
  if (!event) return null;
  const sessionId = payload.session_id ?? payload['thread-id'];
  return typeof sessionId === 'string' && sessionId.length > 0 ? { event, externalSessionId: sessionId.slice(0, 200) } : { event };
}

/**
 * `drover hook EVENT [PAYLOAD]`: run by an agent CLI's own hooks. It reports to Drover and always
 * exits 0 without output, so an agent run outside Drover, or a Drover that went away, is never
 * disturbed.
 */
export async function hookCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [name, payloadArg] = args;
  const socketPath = env.DROVER_SOCKET;
  const agentId = env.DROVER_AGENT_ID;
  if (!name || !socketPath || !agentId) return 0;
  const report = parseHook(name, name === 'codex-notify' ? '' : await readStdin(), payloadArg);
  if (!report) return 0;
  try {
    const client = await connectToDrover(socketPath);
    try {
      await client.rpc.call('reportAgentHook', { agentId, ...report });
    } finally {
      client.close();
    }
  } catch {
    // Silent by design: a hook must never break the agent that runs it.
  }
  return 0;
}
