import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../../test-support/droverProcess';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { connectToDrover, type SocketClient } from '../../cli/socketClient';
import { ScreenMirror } from '../../core/sessions/screenMirror';
import { HOST_DIED_NOTE } from '../../core/sessions/sessionService';
import { socketPathFor } from '../../wire/paths';

/**
 * What a shell and a full-screen CLI draw (`node draw.js NAME`): a wake note at a prompt with
 * bracketed paste on (the pasted text in reverse video, then the line redrawn with cursor moves),
 * a line long enough to wrap, a dialog in the alternate screen and back, colours.
 */
const DRAWING = `
const name = process.argv[2];
const out = (text) => process.stdout.write(text);
out('\\x1b[?2004h$ \\x1b[7m(echo ok; true) \\'[Drover] New message for ' + name + '\\'\\x1b[27m');
out('\\r\\x1b[K$ (echo ok; true) \\'[Drover] New message for ' + name + '\\'\\x1b[20D\\x1b[1mNew\\x1b[0m\\x1b[17C\\r\\n');
out('a long line that wraps at a narrow width, drawn for ' + name + ', '.repeat(4) + '\\r\\n');
out('\\x1b[?1049h\\x1b[H\\x1b[2J\\x1b[3;5H\\x1b[44m Do you want to proceed? \\x1b[0m\\x1b[5;5H1. Yes\\x1b[6;5H2. No\\x1b[6;9H');
out('\\x1b[?1049l\\x1b[32mdrawn ' + name + '\\x1b[0m\\r\\n');
`;

describe('an agent terminal after its host is killed', () => {
  let dir: string;
  let dataDir: string;
  let repo: string;
  let serve: ServeProcess | undefined;
  let client: SocketClient | undefined;

  beforeEach(() => {
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    fs.writeFileSync(path.join(repo, 'draw.js'), DRAWING);
  });
  afterEach(async () => {
    client?.close();
    await serve?.stop();
    removeDir(dir);
  });

  const connect = async () => {
    client?.close();
    client = await connectToDrover(socketPathFor(dataDir));
    return client.rpc;
  };

  /** The host's mirror as a person reads it and as a page gets it (looks, cursor and modes serialized). */
  const shown = async (agentId: string) => {
    const rpc = await connect();
    const { text, cols, rows } = await rpc.call('readAgentScreen', { agentId });
    const styled = (await rpc.call('readAgentScreen', { agentId, styled: true })).text;
    const { snapshot } = await rpc.call('attachAgentTerminal', { agentId });
    await rpc.call('detachAgentTerminal', { agentId });
    return { text, styled, cols, rows, snapshot };
  };

  it('is rebuilt as it was, drawn at the sizes it was drawn at, with one note that the session ended', async () => {
    serve = await startServe(['--data-dir', dataDir, '--project', repo]);
    let rpc = await connect();
    const projectId = (await rpc.call('listProjects', {})).projects[0]!.id;
    await rpc.call('saveAgentProfile', {
      profile: { id: 'sh', name: 'sh', command: '/bin/sh', args: [], env: { PS1: '$ ' }, promptPattern: '\\$ ?$', busyPattern: null, needsInputPattern: null, usageLimitPattern: null, quietMs: 200, integration: 'none', wakeAs: 'shell-note' },
    });
    const { id: agentId } = await rpc.call('createAgent', { projectId, name: 'Drawer', role: '', profileId: 'sh' });
    await rpc.call('startAgent', { agentId, resume: false });
    const screenText = async () => (await rpc.call('readAgentScreen', { agentId })).text;
    await waitFor(async () => (await screenText()).includes('$'), 'the prompt');
    for (const [name, cols, rows] of [['wide', 90, 20], ['narrow', 50, 12]] as const) {
      await rpc.call('resizeAgent', { agentId, cols, rows });
      await rpc.call('writeAgentInput', { agentId, data: `'${process.execPath}' draw.js ${name}\r` });
      await waitFor(async () => (await screenText()).includes(`drawn ${name}\n$`), `what ${name} drew`);
    }
    // A wake note typed at the prompt when the host goes.
    await rpc.call('writeAgentInput', { agentId, data: "(echo ok; true) '[Drover] New message'" });
    await waitFor(async () => (await screenText()).endsWith("$ (echo ok; true) '[Drover] New message'"), 'the note at the prompt');
    const before = await shown(agentId);

    await serve.stop('SIGKILL');
    serve = await startServe(['--data-dir', dataDir]);
    const after = await shown(agentId);
    expect({ cols: after.cols, rows: after.rows }).toEqual({ cols: 50, rows: 12 });
    expect(after.text).toBe(`${before.text}\n── Session ended when the Drover host died. Start it again to continue. ──\n`);
    expect(after.styled.startsWith(`${before.styled}\n`)).toBe(true);
    expect(before.styled).toContain('\u001b[0;7m');
    // Looks, cursor and modes too: the mirror before, with the note written into it, serializes as the rebuilt one.
    const expected = new ScreenMirror(before.cols, before.rows, 5_000);
    expected.write(before.snapshot + HOST_DIED_NOTE);
    expect(after.snapshot).toBe((await expected.snapshot()).data);
    expected.dispose();

    // Another restart, the agent not started again: the same terminal, the note once.
    await serve.stop();
    serve = await startServe(['--data-dir', dataDir]);
    rpc = await connect();
    expect(await shown(agentId)).toEqual(after);
  }, 90_000);
});
