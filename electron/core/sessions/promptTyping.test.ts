import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_APP_SETTINGS } from '../../../shared/appSettings';
import type { Agent } from '../../../shared/entities/agents';
import { DEFAULT_PROJECT_SETTINGS } from '../../../shared/entities/projects';
import { CLI_PATH } from '../../../test-support/buildOnce';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { EventBus } from '../events/eventBus';
import { newId } from '../ids';
import { Locator } from '../locate';
import { writeCliShim } from '../profiles/cliShim';
import { ProfileRegistry } from '../profiles/profileRegistry';
import { ProjectRegistry } from '../projects/projectRegistry';
import { APP_MIGRATIONS } from '../storage/appSchema';
import { DefinitionTable } from '../storage/definitionTable';
import { ProjectStores, type ProjectStore } from '../storage/projectStores';
import { ProjectTable } from '../storage/projectTable';
import { openDatabase, type SqliteDatabase } from '../storage/sqlite';
import { SessionService } from './sessionService';

/**
 * A terminal program with a prompt, for Drover's own typing protocol (not a stand-in for any agent
 * CLI): it asks for bracketed paste, echoes what is typed, logs every byte it receives, and on
 * Enter works for a moment. With DIALOG=now it shows a dialog that takes keys without echoing them
 * (as agent CLIs' dialogs do); with DIALOG=on-input the dialog opens on the first key.
 */
const PROGRAM = String.raw`
const fs = require('node:fs');
const log = process.env.INPUT_LOG;
let mode = process.env.DIALOG === 'now' ? 'dialog' : 'prompt';
let line = '';
let swallowed = false;
const prompt = () => process.stdout.write('\r\n> ');
const dialog = () => process.stdout.write('\r\nAllow? 1. Yes  2. No\r\n');
process.stdout.write('\x1b[?2004hprogram ready');
if (mode === 'dialog') dialog(); else prompt();
process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (data) => {
  fs.appendFileSync(log, JSON.stringify(data) + '\n');
  if (mode === 'prompt' && process.env.DIALOG === 'on-input') { mode = 'dialog'; dialog(); }
  if (mode === 'dialog') {
    // Like agent CLIs' dialogs: a paste is ignored, a digit or Enter answers.
    const keys = data.replace(/\x1b\[200~[\s\S]*?\x1b\[201~/g, '');
    if (keys.includes('\r') || keys.includes('1')) process.stdout.write('APPROVED\r\n');
    return;
  }
  for (const part of data.replace(/\x1b\[20[01]~/g, '').split(/(\r)/)) {
    if (part !== '\r') { line += part; process.stdout.write(part); continue; }
    // Like Gemini CLI taking an Enter soon after a paste as a newline: the text stays in the input.
    if (process.env.FIRST_ENTER_NEWLINE && !swallowed) { swallowed = true; process.stdout.write(' ⏎'); continue; }
    process.stdout.write('\r\nworking…');
    const got = line;
    line = '';
    setTimeout(() => { process.stdout.write('\r\x1b[2Kgot: ' + got); prompt(); }, 300);
  }
});
`;

/** How long after a person's key (or start of the agent) Drover may type: short, so the test waits it out. */
const KEYS_QUIET_MS = 500;

describe('typing a prompt into an agent (SessionService.typePrompt, real PTY)', () => {
  let dir: string;
  let appDb: SqliteDatabase;
  let stores: ProjectStores;
  let store: ProjectStore;
  let profiles: ProfileRegistry;
  let sessions: SessionService;
  let program: string;
  let inputLog: string;

  const latest = (agent: Agent) => store.sessions.latest(agent.id);
  const startAgent = async (dialogMode: 'none' | 'now' | 'on-input', extraEnv: Record<string, string> = {}, byApi = false): Promise<Agent> => {
    profiles.save({
      id: 'prompt-program',
      name: 'Prompt program',
      command: process.execPath,
      args: [program],
      env: { INPUT_LOG: inputLog, DIALOG: dialogMode, ...extraEnv },
      promptPattern: String.raw`^> $(?![\s\S]*\S)`,
      busyPattern: 'working…',
      needsInputPattern: String.raw`Allow\?`,
      usageLimitPattern: null,
      quietMs: 100,
      integration: 'none',
      wakeAs: 'prompt',
    });
    const agent = store.agents.insert({ id: newId('a'), name: 'Typist', role: '', profileId: 'prompt-program', createdAt: Date.now() });
    sessions.start(agent.id, false, byApi);
    await waitFor(() => latest(agent)?.state === 'ready', 'the agent ready');
    return agent;
  };
  const received = () => (fs.existsSync(inputLog) ? fs.readFileSync(inputLog, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as string) : []);
  const screen = async (agentId: string) => {
    const seen = { text: '' };
    const attachment = await sessions.attach(agentId, (chunk) => {
      seen.text += chunk.data;
      attachment.acknowledge(chunk.data.length);
    });
    return seen;
  };

  beforeEach(() => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'repo'));
    program = path.join(dir, 'program.cjs');
    fs.writeFileSync(program, PROGRAM);
    inputLog = path.join(dir, 'input.log');
    const dataDir = path.join(dir, 'data');
    appDb = openDatabase(path.join(dataDir, 'app.sqlite'), { migrations: APP_MIGRATIONS, description: 'app database' });
    const events = new EventBus();
    const projects = new ProjectRegistry(new ProjectTable(appDb), events);
    stores = new ProjectStores({ dataDir, settingsDefaults: DEFAULT_PROJECT_SETTINGS });
    const project = projects.add(path.join(dir, 'repo'), (projectId) => stores.createEmpty(projectId));
    store = stores.get(project.id);
    profiles = new ProfileRegistry(new DefinitionTable(appDb, 'profiles'), process.env);
    sessions = new SessionService(
      new Locator(projects, stores),
      projects,
      stores,
      profiles,
      events,
      {
        socketPath: '/unused',
        shimDir: writeCliShim(path.join(dataDir, 'bin'), [process.execPath, CLI_PATH]),
        baseEnv: () => process.env,
        stopGraceMs: 500,
        scrollbackLines: DEFAULT_APP_SETTINGS.terminalScrollbackLines,
        log: () => {},
      },
      { workspaceOf: (_agent, projectPath) => ({ folder: projectPath, env: {} }) },
    );
  });
  afterEach(async () => {
    await sessions.shutdown();
    stores.closeAll();
    appDb.close();
    removeDir(dir);
  });

  it('pastes the text where the program asked for bracketed paste, and presses Enter only after it showed, on its own', async () => {
    const agent = await startAgent('none');
    const seen = await screen(agent.id);
    const typing = await sessions.typePrompt(agent.id, () => '[Drover] New message: hello', { submitDelayMs: 50, confirmMs: 5_000, keysQuietMs: KEYS_QUIET_MS });
    expect(typing).toEqual({ outcome: 'submitted' });
    expect(received()).toEqual(['\u001b[200~[Drover] New message: hello\u001b[201~', '\r']);
    await waitFor(() => seen.text.includes('got: [Drover] New message: hello'), 'the program to take the prompt');
  });

  it('presses Enter once more when the program kept the text as a newline, and never types the text again', async () => {
    const agent = await startAgent('none', { FIRST_ENTER_NEWLINE: '1' });
    const seen = await screen(agent.id);
    const typing = await sessions.typePrompt(agent.id, () => '[Drover] New message: again', { submitDelayMs: 50, confirmMs: 2_000, keysQuietMs: KEYS_QUIET_MS });
    expect(typing).toEqual({ outcome: 'submitted' });
    expect(received()).toEqual(['\u001b[200~[Drover] New message: again\u001b[201~', '\r', '\r']);
    await waitFor(() => seen.text.includes('got: [Drover] New message: again'), 'the program to take the prompt');
  });

  it('types nothing while a dialog is on screen', async () => {
    const agent = await startAgent('now');
    await waitFor(() => latest(agent)?.needsInput === true, 'the dialog read as needs input');
    expect(await sessions.readiness(agent.id, KEYS_QUIET_MS)).toBe('waiting for your answer to its question');
    expect(await sessions.typePrompt(agent.id, () => 'hello', { submitDelayMs: 50, confirmMs: 1_000, keysQuietMs: KEYS_QUIET_MS })).toMatchObject({ outcome: 'not-ready' });
    expect(received()).toEqual([]);
  });

  it('does not press Enter when a dialog took the keys instead of the prompt (no echo)', async () => {
    const agent = await startAgent('on-input');
    const seen = await screen(agent.id);
    const typing = await sessions.typePrompt(agent.id, () => '[Drover] New message: hello', { submitDelayMs: 50, confirmMs: 1_500, keysQuietMs: KEYS_QUIET_MS });
    expect(typing).toMatchObject({ outcome: 'not-taken' });
    expect(received().join('')).not.toContain('\r');
    expect(seen.text).not.toContain('APPROVED');
  });

  it('types nothing while a person has just started it or typed into it, and presses no Enter after their keys', async () => {
    const agent = await startAgent('none', {}, true);
    // Started through the API: whoever started it may type its first command at once.
    expect(await sessions.readiness(agent.id, KEYS_QUIET_MS)).toMatch(/^in a person's hands/);
    expect(await sessions.typePrompt(agent.id, () => 'hello', { submitDelayMs: 50, confirmMs: 1_000, keysQuietMs: KEYS_QUIET_MS })).toMatchObject({ outcome: 'not-ready' });
    await waitFor(async () => (await sessions.readiness(agent.id, KEYS_QUIET_MS)) === null, 'the start that long past');
    // An empty paste: the person's key leaves the prompt empty, so only its time holds Drover back.
    sessions.write(agent.id, '\u001b[200~\u001b[201~');
    expect(await sessions.readiness(agent.id, KEYS_QUIET_MS)).toMatch(/^in a person's hands/);
    await waitFor(async () => (await sessions.readiness(agent.id, KEYS_QUIET_MS)) === null, 'the key that long past');
    const typing = sessions.typePrompt(agent.id, () => '[Drover] New message: hello', { submitDelayMs: 300, confirmMs: 2_000, keysQuietMs: KEYS_QUIET_MS });
    await waitFor(() => received().some((data) => data.includes('[Drover] New message: hello')), 'the text typed');
    sessions.write(agent.id, 'ls');
    expect(await typing).toEqual({ outcome: 'not-taken', why: 'someone typed into it meanwhile, so Enter was not pressed' });
    expect(received().join('')).not.toContain('\r');
  });
});
