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

/**
 * `drover hook EVENT [PAYLOAD]`: run by an agent CLI's own hooks (Claude Code passes JSON on stdin,
 * Codex's notify program gets it as the last argument). It reports to Drover and always exits 0
 * without output, so an agent run outside Drover, or a Drover that went away, is never disturbed.
 */
export async function hookCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [name, payloadArg] = args;
  const socketPath = env.DROVER_SOCKET;
  const agentId = env.DROVER_AGENT_ID;
  if (!name || !socketPath || !agentId) return 0;
  let event = EVENTS[name];
  let payload: Record<string, unknown>;
  if (name === 'codex-notify') {
    payload = parseObject(payloadArg);
    event = payload.type === 'agent-turn-complete' ? 'stopped' : undefined;
  } else {
    payload = parseObject(await readStdin());
  }
  if (!event) return 0;
  const sessionId = payload.session_id ?? payload['thread-id'];
  try {
    const client = await connectToDrover(socketPath);
    try {
      await client.rpc.call('reportAgentHook', {
        agentId,
        event,
        ...(typeof sessionId === 'string' && sessionId.length > 0 ? { externalSessionId: sessionId.slice(0, 200) } : {}),
      });
    } finally {
      client.close();
    }
  } catch {
    // Silent by design: a hook must never break the agent that runs it.
  }
  return 0;
}
