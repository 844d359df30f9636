import { describe, expect, it } from 'vitest';
import { runCli } from '../../test-support/droverProcess';
import { parseHook } from './hookCommand';

/** Payloads as Claude Code's hooks and Codex's notify program send them. */
const CLAUDE = {
  sessionStart: { session_id: '9f1c2d3e-1111-4222-8333-944455556666', transcript_path: '/home/me/.claude/projects/x/9f1c.jsonl', cwd: '/home/me/shop', hook_event_name: 'SessionStart', source: 'startup' },
  userPromptSubmit: { session_id: '9f1c2d3e-1111-4222-8333-944455556666', transcript_path: '/home/me/.claude/projects/x/9f1c.jsonl', cwd: '/home/me/shop', hook_event_name: 'UserPromptSubmit', prompt: 'add a retry to the fetcher' },
  stop: { session_id: '9f1c2d3e-1111-4222-8333-944455556666', transcript_path: '/home/me/.claude/projects/x/9f1c.jsonl', hook_event_name: 'Stop', stop_hook_active: false },
  notification: { session_id: '9f1c2d3e-1111-4222-8333-944455556666', hook_event_name: 'Notification', message: 'Claude needs your permission to use Bash' },
};
const CODEX_TURN = { type: 'agent-turn-complete', 'thread-id': '0199a213-81c0-7800-8aa1-bbab2a035a53', 'turn-id': '12', cwd: '/home/me/shop', 'input-messages': ['run the tests'], 'last-assistant-message': 'All 42 tests pass.' };

describe('parseHook', () => {
  it('reads Claude Code hook payloads from stdin, with the conversation id', () => {
    const id = CLAUDE.stop.session_id;
    expect(parseHook('session-start', JSON.stringify(CLAUDE.sessionStart), undefined)).toEqual({ event: 'session-start', externalSessionId: id });
    expect(parseHook('prompt-submitted', JSON.stringify(CLAUDE.userPromptSubmit), undefined)).toEqual({ event: 'prompt-submitted', externalSessionId: id });
    expect(parseHook('stopped', JSON.stringify(CLAUDE.stop), undefined)).toEqual({ event: 'stopped', externalSessionId: id });
    expect(parseHook('needs-input', JSON.stringify(CLAUDE.notification), undefined)).toEqual({ event: 'needs-input', externalSessionId: id });
  });

  it('reads Codex notify payloads from the last argument', () => {
    expect(parseHook('codex-notify', '', JSON.stringify(CODEX_TURN))).toEqual({ event: 'stopped', externalSessionId: CODEX_TURN['thread-id'] });
    expect(parseHook('codex-notify', '', JSON.stringify({ type: 'something-else' }))).toBeNull();
  });

  it('still reports the event when the payload is missing or not JSON, and ignores unknown hooks', () => {
    expect(parseHook('stopped', 'not json', undefined)).toEqual({ event: 'stopped' });
    expect(parseHook('stopped', '', undefined)).toEqual({ event: 'stopped' });
    expect(parseHook('unknown-hook', '{}', undefined)).toBeNull();
  });

  it('exits 0 silently outside a Drover agent terminal', async () => {
    const env = { ...process.env, DROVER_SOCKET: '', DROVER_AGENT_ID: '' };
    expect(await runCli(['hook', 'stopped'], { env })).toEqual({ code: 0, stdout: '', stderr: '' });
    const gone = { ...process.env, DROVER_SOCKET: '/nonexistent/drover.sock', DROVER_AGENT_ID: 'a-abc123' };
    expect(await runCli(['hook', 'codex-notify', JSON.stringify(CODEX_TURN)], { env: gone })).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});
