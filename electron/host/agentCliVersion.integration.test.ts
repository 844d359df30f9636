import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../shared/entities/projects';
import type { AgentSession } from '../../shared/entities/sessions';
import { TESTED_CLIS } from '../core/profiles/cliVersion';
import { CLI_PATH } from '../../test-support/buildOnce';
import { FAKE_PROFILE } from '../../test-support/fakeAgentProfile';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';
import { startHost, type DroverHost } from './host';

/**
 * When an agent starts, Drover asks its CLI for its version beside the session and notes on the
 * session a CLI newer than the newest tested; a CLI slow to answer never holds the agent up.
 */
describe("an agent's CLI version", () => {
  let dir: string;
  let host: DroverHost;
  let project: Project;

  /** A `claude` on disk that is the fake agent, answering `--version` once `gate` exists (if given). */
  const claudeCli = (folder: string, version: string, gate?: string) => {
    fs.mkdirSync(path.join(dir, folder));
    const file = path.join(dir, folder, 'claude');
    const [node, fakeAgent] = [process.execPath, ...FAKE_PROFILE.args];
    // Bounded, so a failed test leaves no process behind for long.
    const wait = gate ? `n=0; while [ ! -e "${gate}" ] && [ $n -lt 200 ]; do sleep 0.1; n=$((n+1)); done; ` : '';
    fs.writeFileSync(file, `#!/bin/sh\nif [ "$1" = "--version" ]; then ${wait}echo "${version} (Claude Code)"; exit 0; fi\nexec "${node}" "${fakeAgent}" "$@"\n`, { mode: 0o755 });
    return file;
  };
  const start = async (profileId: string) => {
    const agent = await host.core.api.createAgent({ projectId: project.id, name: profileId, role: '', profileId });
    await host.core.api.startAgent({ agentId: agent.id, resume: false });
    return async () => (await host.core.api.getWorkState({ projectId: project.id })).sessions.find((s) => s.agentId === agent.id) as AgentSession;
  };

  beforeEach(async () => {
    dir = makeTempDir('drover-cli-version-host-');
    fs.mkdirSync(path.join(dir, 'project'));
    host = await startHost({ dataDir: path.join(dir, 'data'), version: 'test', cliCommand: [process.execPath, CLI_PATH], agentStopGraceMs: 500 });
    project = await host.core.api.addProject({ path: path.join(dir, 'project') });
  });
  afterEach(async () => {
    await host.close();
    removeDir(dir);
  });

  it('notes a CLI newer than the newest tested on its session, and not a tested one', async () => {
    await host.core.api.saveAgentProfile({ profile: { ...FAKE_PROFILE, id: 'newer', command: claudeCli('newer', '9.9.9'), args: [] } });
    await host.core.api.saveAgentProfile({ profile: { ...FAKE_PROFILE, id: 'tested', command: claudeCli('tested', TESTED_CLIS.claude?.newestTested as string), args: [] } });
    const newer = await start('newer');
    const tested = await start('tested');
    await waitFor(async () => (await newer()).cliVersion !== null && (await tested()).cliVersion !== null, 'both versions read');
    expect((await newer()).cliVersion).toEqual({ version: '9.9.9', newerThanTested: TESTED_CLIS.claude?.newestTested });
    expect((await tested()).cliVersion).toEqual({ version: TESTED_CLIS.claude?.newestTested, newerThanTested: null });
  });

  it('never holds the agent up: it is ready while its CLI has not told its version, which shows once it does', async () => {
    const gate = path.join(dir, 'answer-now');
    await host.core.api.saveAgentProfile({ profile: { ...FAKE_PROFILE, id: 'slow', command: claudeCli('slow', '9.9.9', gate), args: [] } });
    const slow = await start('slow');
    await waitFor(async () => (await slow()).state === 'ready', 'ready');
    expect((await slow()).cliVersion).toBeNull();
    fs.writeFileSync(gate, '');
    await waitFor(async () => (await slow()).cliVersion?.version === '9.9.9', 'the version, once told');
    expect((await slow()).state).toBe('ready');
  });
});
