import fs from 'node:fs';
import path from 'node:path';
import { MAX_MARKS_PER_CHARACTER } from '../electron/core/sessions/combiningMarks';
import { agentPane, openWorkspace, saveProfiles, SHELL_AGENT_PROFILE, startedShellAgent, terminalOf, typeLine } from './support/agents';
import { withSocket } from './support/attention';
import { expect, test } from './support/droverHost';

const ACUTE = '\u0301';

/**
 * A program that asks the terminal what terminals are asked (device attributes, the cursor
 * position, a DECRQSS, the background colour), then writes down every byte it gets as input.
 */
const QUERYING_PROGRAM = `
const fs = require('fs');
process.stdin.setRawMode(true);
process.stdin.on('data', (data) => fs.appendFileSync(process.argv[2], data));
process.stdout.write('\\x1b[c\\x1b[6n\\x1bP$qm\\x1b\\\\\\x1b]11;?\\x07asked\\r\\n');
`;

test('50,000 combining marks on one character reach no terminal: the page stays responsive, live and on every reload', async ({ page, drover }) => {
  const { folder, projectId, terminal, agentId } = await startedShellAgent(page, drover, 'Zalgo', 'Prints marks');
  fs.writeFileSync(path.join(folder, 'marks.js'), `process.stdout.write('e' + '${ACUTE}'.repeat(50000) + '\\r\\nafter the marks\\r\\n');`);
  await typeLine(page, terminal, `'${process.execPath}' marks.js`);
  await expect(terminal).toContainText('after the marks');
  for (let reload = 0; reload < 2; reload++) {
    await page.reload();
    await expect(terminalOf(agentPane(page, 'Zalgo'), 'Zalgo')).toContainText('after the marks');
  }
  const { text } = await withSocket(drover, (rpc) => rpc.call('readAgentScreen', { agentId }));
  expect(text).toContain(`e${ACUTE.repeat(MAX_MARKS_PER_CHARACTER)}\n`);
  expect(fs.readFileSync(path.join(drover.dataDir, 'projects', projectId, 'agents', agentId, 'scrollback.log'), 'utf8')).not.toContain(ACUTE.repeat(MAX_MARKS_PER_CHARACTER + 1));
});

test('what a page answers while it restores a screen is never typed into the agent: reloads and a second tab add no input', async ({ page, drover, context }) => {
  const { folder, url, projectId, terminal } = await startedShellAgent(page, drover, 'Asker', 'Queries the terminal');
  const program = path.join(folder, 'ask.js');
  const input = path.join(folder, 'input.log');
  fs.writeFileSync(program, QUERYING_PROGRAM);
  await typeLine(page, terminal, `'${process.execPath}' ask.js '${input}'`);
  await expect(terminal).toContainText('asked');
  // The page that was there when the program asked answers it, once: that is the terminal working.
  await expect.poll(() => fs.existsSync(input) && fs.readFileSync(input, 'utf8')).toMatch(/\[\?[\d;]+c/);
  const answered = fs.readFileSync(input, 'utf8');

  for (let reload = 0; reload < 3; reload++) {
    await page.reload();
    await expect(terminalOf(agentPane(page, 'Asker'), 'Asker')).toContainText('asked');
  }
  const second = await context.newPage();
  await openWorkspace(second, url, projectId);
  await expect(terminalOf(agentPane(second, 'Asker'), 'Asker')).toContainText('asked');
  // The program writes down every byte: typing a line proves the input path works, and that nothing came before it.
  await typeLine(page, terminalOf(agentPane(page, 'Asker'), 'Asker'), 'z');
  await expect.poll(() => fs.readFileSync(input, 'utf8')).toBe(`${answered}z\r`);
});

test('200 agents: a page makes and attaches only the terminals in view, and the others as they come into view', async ({ page, drover }) => {
  // About 60 panes are in view at once in this window: making their terminals is seconds of work
  // on a slow machine (each DOM-drawn terminal adds style elements of its own, and each makes
  // Chromium restyle the whole page of 200 panes), so the waits below allow for it; the test checks
  // which are made, not how fast.
  test.slow();
  const makingTerminals = { timeout: 45_000 };
  const folder = drover.makeFolder('shop-api');
  const url = await drover.startHost(['--project', folder]);
  const projectId = await saveProfiles(drover, folder, [SHELL_AGENT_PROFILE]);
  await withSocket(drover, async (rpc) => {
    for (let n = 1; n <= 200; n++) await rpc.call('createAgent', { projectId, name: `Agent ${n}`, role: '', profileId: SHELL_AGENT_PROFILE.id as string });
  });
  const agents = await openWorkspace(page, url, projectId);
  await expect(agentPane(page, 'Agent 200')).toBeAttached(makingTerminals);
  const made = agents.locator('.xterm');
  await expect(made.first()).toBeAttached(makingTerminals);
  const inView = await agents.locator('.agent-terminal').evaluateAll((terminals) =>
    terminals.filter((terminal) => {
      const box = terminal.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth;
    }).length,
  );
  // Only panes in view have a terminal: never one the page has not shown, such as the last.
  expect(inView).toBeLessThan(200);
  expect(await made.count()).toBeLessThanOrEqual(inView);
  const last = agentPane(page, 'Agent 200');
  await expect(terminalOf(last, 'Agent 200').locator('.xterm')).toHaveCount(0);
  await last.scrollIntoViewIfNeeded();
  await expect(terminalOf(last, 'Agent 200').locator('.xterm')).toBeAttached(makingTerminals);
});
