import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/buildOnce';
import { runCli } from '../../test-support/droverProcess';
import { parseHook, quotaOf, statusLine } from './hookCommand';

/** Payloads the real CLIs' hooks sent (Claude Code 2.1.197, Codex 0.171.0, Gemini CLI 0.61.0). */
const RECORDED = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test-support', 'realCli', 'recorded', 'hookPayloads.json'), 'utf8')) as Record<
  'claude' | 'codex' | 'gemini',
  Record<string, Record<string, unknown>>
>;
const payload = (cli: keyof typeof RECORDED, name: string) => {
  const found = RECORDED[cli][name];
  if (!found) throw new Error(`no recorded ${cli} payload ${name}`);
  return JSON.stringify(found);
};

describe('parseHook on what Claude Code sends', () => {
  const id = '5de42f8c-36af-4a84-8b6b-b746bc66c05f';

  it('follows a turn: a prompt submitted (with the conversation id and its text), then its end', () => {
    expect(parseHook('claude', payload('claude', 'UserPromptSubmit'))).toEqual({ event: 'prompt-submitted', externalSessionId: id, prompt: 'say hello' });
    expect(parseHook('claude', payload('claude', 'Stop'))).toEqual({ event: 'stopped', externalSessionId: id });
    expect(parseHook('claude', payload('claude', 'SessionStart/startup'))).toEqual({ event: 'session-start' });
  });

  it('reads an API error and a rate limit from StopFailure, with what the CLI printed', () => {
    expect(parseHook('claude', payload('claude', 'StopFailure/server_error'))).toMatchObject({ event: 'stop-failed', error: 'server_error' });
    expect(parseHook('claude', payload('claude', 'StopFailure/rate_limit-subscriber'))).toMatchObject({
      event: 'stop-failed',
      error: 'rate_limit',
      message: "You've hit your Sonnet limit · resets Dec 2, 8:31pm (Europe/Paris)",
    });
  });

  it('takes permission dialogs as needs input, also a subagent’s (it shows on the main screen), but not the 60 s idle notification', () => {
    expect(parseHook('claude', payload('claude', 'PermissionRequest/Bash'))).toEqual({ event: 'needs-input' });
    expect(parseHook('claude', payload('claude', 'PermissionRequest/sub/Bash'))).toEqual({ event: 'needs-input' });
    expect(parseHook('claude', payload('claude', 'Notification-matched/permission_prompt'))).toEqual({ event: 'needs-input' });
    expect(parseHook('claude', payload('claude', 'Notification-all/idle_prompt'))).toBeNull();
  });

  it('ignores the rest of a subagent’s events and events Drover does not follow', () => {
    expect(parseHook('claude', payload('claude', 'SubagentStop/sub'))).toBeNull();
    expect(parseHook('claude', payload('claude', 'PreToolUse/sub'))).toBeNull();
    expect(parseHook('claude', payload('claude', 'SessionEnd'))).toBeNull();
  });

  it('reads the plan quota from the status line input, which has it only for subscribers', () => {
    const withLimits = JSON.parse(payload('claude', 'statusLine/with-rate-limits')) as Record<string, unknown>;
    expect(quotaOf(withLimits)).toEqual({ fiveHour: { usedPercent: 42, resetsAt: 1796050091000 }, weekly: { usedPercent: 17, resetsAt: 1796384891000 } });
    expect(parseHook('claude-status-line', payload('claude', 'statusLine/after-429'))).toMatchObject({ event: 'quota', quota: { fiveHour: { usedPercent: 100 } } });
    expect(parseHook('claude-status-line', payload('claude', 'statusLine/api-key'))).toBeNull();
    expect(statusLine('Backend', quotaOf(withLimits))).toBe('Drover agent Backend · 5h 42% · week 17%');
    // Claude Code draws the line as the command prints it: a name's control characters are shown escaped.
    expect(statusLine('Evil\u001b[2J\u001b]52;c;aGk=\u0007', null)).toBe('Drover agent Evil\\033[2J\\033]52;c;aGk=\\a');
  });
});

describe('parseHook on what Codex and Gemini CLI send', () => {
  it('Codex: a prompt, its end, a permission dialog; nothing else', () => {
    const id = JSON.parse(payload('codex', 'Stop')).session_id as string;
    expect(parseHook('codex', payload('codex', 'UserPromptSubmit'))).toEqual({ event: 'prompt-submitted', externalSessionId: id, prompt: 'create the marker' });
    expect(parseHook('codex', payload('codex', 'Stop'))).toEqual({ event: 'stopped', externalSessionId: id });
    expect(parseHook('codex', payload('codex', 'PermissionRequest'))).toEqual({ event: 'needs-input' });
    expect(parseHook('codex', payload('codex', 'SessionStart'))).toBeNull();
  });

  it('Gemini CLI: BeforeAgent, AfterAgent, and the ToolPermission notification for shell and MCP dialogs', () => {
    const id = JSON.parse(payload('gemini', 'AfterAgent')).session_id as string;
    expect(parseHook('gemini', payload('gemini', 'BeforeAgent'))).toEqual({ event: 'prompt-submitted', externalSessionId: id, prompt: 'say something' });
    expect(parseHook('gemini', payload('gemini', 'AfterAgent'))).toEqual({ event: 'stopped', externalSessionId: id });
    expect(parseHook('gemini', payload('gemini', 'Notification/exec'))).toEqual({ event: 'needs-input' });
    expect(parseHook('gemini', payload('gemini', 'Notification/mcp'))).toEqual({ event: 'needs-input' });
    expect(parseHook('gemini', payload('gemini', 'SessionStart'))).toBeNull();
  });

  it('reports nothing for a payload that is not JSON or an unknown CLI', () => {
    expect(parseHook('claude', 'not json')).toBeNull();
    expect(parseHook('someone-else', payload('claude', 'Stop'))).toBeNull();
  });
});

describe('drover hook', () => {
  it('exits 0 silently outside a Drover agent terminal, and when Drover is gone', async () => {
    const env = { ...process.env, DROVER_SOCKET: '', DROVER_AGENT_ID: '' };
    expect(await runCli(['hook', 'claude'], { env })).toEqual({ code: 0, stdout: '', stderr: '' });
    const gone = { ...process.env, DROVER_SOCKET: '/nonexistent/drover.sock', DROVER_AGENT_ID: 'a-abc123' };
    expect(await runCli(['hook', 'codex'], { env: gone })).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('prints Claude Code’s status line even when Drover is gone', async () => {
    const env = { ...process.env, DROVER_SOCKET: '/nonexistent/drover.sock', DROVER_AGENT_ID: 'a-abc123', DROVER_AGENT_NAME: 'Backend' };
    expect(await runCli(['hook', 'claude-status-line'], { env })).toEqual({ code: 0, stdout: 'Drover agent Backend\n', stderr: '' });
  });
});
