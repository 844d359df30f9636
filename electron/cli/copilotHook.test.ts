import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/buildOnce';
import { parseHook } from './hookCommand';

/** Payloads GitHub Copilot CLI 1.0.102's hooks sent, by event (its payloads do not name it). */
const RECORDED = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test-support', 'realCli', 'recorded', 'copilotHookPayloads.json'), 'utf8')) as { copilot: Record<string, object> }).copilot;
const sent = (name: string) => {
  const found = RECORDED[name];
  if (!found) throw new Error(`no recorded copilot payload ${name}`);
  return JSON.stringify(found);
};
const event = (name: string) => name.split('/')[0];
const parse = (name: string) => parseHook('copilot', sent(name), event(name));

describe('parseHook on what GitHub Copilot CLI sends', () => {
  it('follows a turn: a prompt submitted (with the conversation id and its text), then its end', () => {
    expect(parse('userPromptSubmitted')).toEqual({ event: 'prompt-submitted', externalSessionId: '95dfdb98-de6a-4653-97a9-f095f0ac9f94', prompt: 'limit now' });
    expect(parse('agentStop')).toEqual({ event: 'stopped', externalSessionId: '668f481d-b1f3-4832-ba7e-5c0107a6b1b5' });
  });

  it("reads a provider's 429 as a rate limit and any other failed call as an API error, with the provider's message", () => {
    expect(parse('errorOccurred/rate_limit_error')).toMatchObject({ event: 'stop-failed', error: 'rate_limit', message: 'You exceeded your current quota.' });
    expect(parse('errorOccurred/api_error')).toMatchObject({ event: 'stop-failed', error: 'api_error', message: 'Internal error encountered.' });
  });

  it('takes the notification that a permission dialog opened as needs input, and reports nothing for the hooks Drover does not follow', () => {
    expect(parse('notification')).toEqual({ event: 'needs-input' });
    expect(parseHook('copilot', JSON.stringify({ ...RECORDED.notification, notification_type: 'agent_idle' }), 'notification')).toBeNull();
    // permissionRequest fires also for a call a rule allows: not a question to the person.
    for (const name of ['sessionStart', 'sessionEnd', 'preToolUse', 'permissionRequest']) expect(parse(name), name).toBeNull();
  });

  it('reports nothing without the event name the hook command passes', () => {
    expect(parseHook('copilot', sent('agentStop'))).toBeNull();
  });
});
