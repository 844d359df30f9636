import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { opencodePlugin } from '../core/profiles/opencodeLaunch';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { parseLimitReset } from '../core/sessions/usageLimit';
import { parseHook, resetText } from './hookCommand';

type Hooks = {
  event(input: { event: { type: string; properties: Record<string, unknown> } }): Promise<void>;
  'chat.message'(input: Record<string, unknown>, output: Record<string, unknown>): Promise<void>;
};

describe("Drover's OpenCode plugin", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) removeDir(dir);
    dir = undefined;
  });

  /** The plugin as OpenCode loads it, reporting to a stand-in `drover` that keeps each report. */
  const loadPlugin = async () => {
    dir = makeTempDir('drover-opencode-plugin-');
    const reports = path.join(dir, 'reports');
    fs.mkdirSync(reports);
    const drover = path.join(dir, 'drover');
    // Each report is written whole, then named: a listing never sees one half-written.
    fs.writeFileSync(drover, `#!/bin/sh\nname="${reports}/$$-$(date +%s%N)"\ncat > "$name.part" && mv "$name.part" "$name.json"\n`, { mode: 0o755 });
    const file = path.join(dir, 'drover.js');
    fs.writeFileSync(file, opencodePlugin(drover));
    const module = (await import(pathToFileURL(file).href)) as { DroverPlugin: () => Promise<Hooks> };
    const hooks = await module.DroverPlugin();
    const received = () =>
      fs
        .readdirSync(reports)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .map((name) => fs.readFileSync(path.join(reports, name), 'utf8'));
    return { hooks, received };
  };

  it('reports a turn of the main session as Drover reads it, and nothing of a subagent but its permission dialog; a long retry wait is a limit until its end, and the retry then a turn of its own', async () => {
    const { hooks, received } = await loadPlugin();
    // Events shaped as OpenCode 1.18.33 sent them to a plugin (recorded from the real CLI).
    const main = 'ses_dcc9ed1a9ffeyD0Q0yKILzHWQJ';
    const sub = 'ses_sub9ed1a9ffeyD0Q0yKILzHWQ';
    await hooks.event({ event: { type: 'session.created', properties: { sessionID: sub, info: { id: sub, parentID: main } } } });
    await hooks['chat.message']({ sessionID: main, agent: 'build' }, { message: { role: 'user', sessionID: main }, parts: [{ type: 'text', text: 'say hello' }] });
    await waitFor(() => received().length === 1, 'the prompt reported');
    await hooks.event({ event: { type: 'session.status', properties: { sessionID: main, status: { type: 'busy' } } } });
    await hooks.event({ event: { type: 'message.part.updated', properties: { sessionID: main } } });
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: sub } } });
    await hooks.event({ event: { type: 'permission.asked', properties: { sessionID: sub, permission: 'bash' } } });
    await waitFor(() => received().length === 2, 'the subagent permission reported');
    await hooks.event({ event: { type: 'session.error', properties: { sessionID: main, error: { name: 'APIError', data: { message: 'Internal error encountered.' } } } } });
    await waitFor(() => received().length === 3, 'the error reported');
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: main } } });
    await waitFor(() => received().length === 4, 'idle reported');
    // A 429 with `retry-after` 3 h, then a passing error it retries in 2 s.
    const next = Date.now() + 3 * 3600_000;
    const status = (at: number) => ({ type: 'retry', attempt: 1, message: 'You exceeded your current quota.', next: at });
    await hooks.event({ event: { type: 'session.status', properties: { sessionID: main, status: status(next) } } });
    await hooks.event({ event: { type: 'session.status', properties: { sessionID: main, status: status(Date.now() + 2_000) } } });
    await waitFor(() => received().length === 6, 'the retries reported');
    // The busy that follows a retry is OpenCode going on by itself; a busy at rest is not reported.
    await hooks.event({ event: { type: 'session.status', properties: { sessionID: main, status: { type: 'busy' } } } });
    await waitFor(() => received().length === 7, 'the continuation reported');
    await hooks.event({ event: { type: 'session.status', properties: { sessionID: main, status: { type: 'busy' } } } });
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: main } } });
    await waitFor(() => received().length === 8, 'idle reported');
    expect(received().map((report) => parseHook('opencode', report))).toEqual([
      { event: 'prompt-submitted', externalSessionId: main, prompt: 'say hello' },
      { event: 'needs-input' },
      { event: 'stop-failed', externalSessionId: main, error: 'APIError', message: 'Internal error encountered.' },
      { event: 'stopped', externalSessionId: main },
      { event: 'stop-failed', externalSessionId: main, error: 'rate_limit', message: `You exceeded your current quota. · ${resetText(Math.ceil(next / 60_000) * 60_000)}` },
      null,
      { event: 'prompt-submitted', externalSessionId: main },
      { event: 'stopped', externalSessionId: main },
    ]);
    // Drover reads the reset back from that text, to the minute after the retry.
    const limit = parseHook('opencode', received()[4] as string);
    expect(parseLimitReset(limit?.message ?? '', Date.now())).toBe(Math.ceil(next / 60_000) * 60_000);
  });
});
