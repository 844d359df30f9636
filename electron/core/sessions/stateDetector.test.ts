import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentProfileInput } from '../../../shared/entities/profiles';
import { REPO_ROOT } from '../../../test-support/buildOnce';
import { BUILT_IN_PROFILES } from '../profiles/builtInProfiles';
import { LimitLineTracker } from './limitLines';
import { detectState, readScreen, showsEmptyPrompt, type DetectedState, type ScreenReading } from './stateDetector';

const profile = (id: string): AgentProfileInput => {
  const found = BUILT_IN_PROFILES.find((p) => p.id === id);
  if (!found) throw new Error(id);
  return found;
};

/**
 * Screens the real-CLI suite recorded (e2e/realCli, DROVER_RECORD_SCREENS=1), as Drover's mirror
 * of each real CLI showed them: test-support/realCli/screens/<profile>-<version>/<scenario>.txt.
 */
const SCREENS_DIR = path.join(REPO_ROOT, 'test-support', 'realCli', 'screens');
const recorded = fs.readdirSync(SCREENS_DIR).map((folder) => ({
  folder,
  profileId: folder.slice(0, folder.indexOf('-')),
  screens: Object.fromEntries(fs.readdirSync(path.join(SCREENS_DIR, folder)).map((file) => [file.replace(/\.txt$/, ''), fs.readFileSync(path.join(SCREENS_DIR, folder, file), 'utf8')])),
}));

/**
 * Claude Code and Gemini CLI draw a busy line for a whole turn; Codex draws none while it streams an
 * answer (its status reports on the terminal say busy instead).
 */
const SHOWS_BUSY_LINE: Record<string, boolean> = { claude: true, gemini: true, codex: false, copilot: true, opencode: true };
/** OpenCode starts straight at its prompt: no trust, theme or login dialog on a first run. */
const HAS_FIRST_RUN_DIALOGS: Record<string, boolean> = { claude: true, gemini: true, codex: true, copilot: true, opencode: false };
/**
 * Copilot CLI names no reset for a provider's 429 (it has no plan of its own offline): its limit
 * holds while the line shows. OpenCode says how long it waits at a limit ("retrying in 2h 59m"), not when it resets.
 */
const LIMIT_NAMES_RESET: Record<string, boolean> = { claude: true, gemini: true, codex: true, copilot: false, opencode: false };

/**
 * A limit's words as an agent shows them, drawn as each CLI draws a command's output and an answer
 * (see its recorded screens): a file it cats that holds the CLI's own limit lines, and its answer
 * quoting them.
 */
const AGENT_SHOWS_LIMIT_WORDS: Record<string, string> = {
  claude: [
    '❯ show me notes.txt',
    '',
    '● Bash(cat notes.txt)',
    "  ⎿  You've hit your session limit · resets 11:59pm",
    '     ❯ and this hits the limit',
    "     ⎿  You've hit your session limit · resets 11:59pm",
    '',
    '● The file says:',
    "  You've hit your session limit · resets 11:59pm",
    "  ⎿  You've hit your session limit · resets 11:59pm",
  ].join('\n'),
  codex: [
    '› show me notes.txt',
    '',
    '• Ran cat notes.txt',
    '  └ ■ You’ve hit your usage limit. Try again at 11:59 PM.',
    '',
    '• The file says:',
    '  ■ You’ve hit your usage limit. Try again at 11:59 PM.',
  ].join('\n'),
  gemini: [
    ' > show me notes.txt',
    `╭${'─'.repeat(50)}╮`,
    '│ ✓  Shell cat notes.txt                          │',
    '│                                                  │',
    '│ Usage limit reached for all Pro models.          │',
    '│ Access resets at 11:59 PM UTC.                   │',
    `╰${'─'.repeat(50)}╯`,
    '✦ The file says: Usage limit reached for all Pro models.',
  ].join('\n'),
  copilot: [
    ' ❯ show me notes.txt',
    '',
    ' $ cat notes.txt',
    "   └ You've been rate limited on the current model",
    '      ✗ 429 You exceeded your current quota.',
    '',
    " ● The file says: You've been rate limited on the current model",
    '   ✗ 429 You exceeded your current quota.',
  ].join('\n'),
  opencode: [
    '  ┃  show me notes.txt',
    '',
    '     You exceeded your current quota. [retrying in 3h attempt #1]',
    '',
    '     $ cat footer.txt',
    `     ╹${'▀'.repeat(40)}`,
    '     You exceeded your current quota. [retrying in 3h attempt #1]',
    '',
    '     ▣  Build · Fake Sonnet',
  ].join('\n'),
};

/** Copilot's dialogs as its bundle draws them at 120 columns (see its recorded approval screens). */
const COPILOT_WIDTH = 120;
const copilotBox = (rows: string[], width: number): string[] => [
  `╭${'─'.repeat(width - 2)}╮`,
  ...rows.map((row) => `│ ${row.padEnd(width - 4)} │`),
  `╰${'─'.repeat(width - 2)}╯`,
];
const copilotDialog = (title: string, body: string[]): string =>
  copilotBox([title, '─'.repeat(COPILOT_WIDTH - 4), ...body, '', '↑/↓ to navigate · enter to select · esc to cancel'], COPILOT_WIDTH).join('\n');

/**
 * Each CLI's approval dialog, in place of its input, asking to run a command that prints a limit's
 * words: what the agent put in it is still only what the agent shows.
 */
const AGENT_ASKS_TO_SHOW_LIMIT_WORDS: Record<string, string> = {
  claude: [
    '─'.repeat(120),
    ' Bash command',
    '',
    `   echo "  ⎿  You've hit your session limit · resets 11:59pm"`,
    '   Print the notice',
    '',
    ' Do you want to proceed?',
    ' ❯ 1. Yes',
    '   2. No',
    '',
    ' Esc to cancel · Tab to amend · ctrl+e to explain',
  ].join('\n'),
  codex: [
    '  Would you like to run the following command?',
    '',
    '  Reason: Print the notice',
    '',
    '  $ echo "■ You’ve hit your usage limit. Try again at 11:59 PM."',
    '',
    '› 1. Yes, proceed (y)',
    '  2. No, and tell Codex what to do differently (esc)',
    '',
    '  Press enter to confirm or esc to cancel',
  ].join('\n'),
  gemini: copilotBox(
    [
      '? Shell  echo "Usage limit reached for all Pro models."',
      ...copilotBox(['echo "Usage limit reached for all Pro models."'], COPILOT_WIDTH - 4),
      'Allow execution of [Shell]?',
      '',
      '● 1. Allow once',
      '  2. No, suggest changes (esc)',
    ],
    COPILOT_WIDTH,
  ).join('\n'),
  copilot: copilotDialog('Run a command', [
    ...copilotBox([`echo "You've been rate limited on the current model"`], COPILOT_WIDTH - 4),
    '',
    'Do you want to run this command?',
    '',
    '❯ 1. Yes',
    '  2. No, and tell Copilot what to do differently (Esc to stop)',
  ]),
  opencode: [
    '  ┃',
    '  ┃  △ Permission required',
    '  ┃    # Print the notice',
    '  ┃',
    `  ┃  $ printf '╹${'▀'.repeat(40)}\\n[retrying in 3h attempt #1]'`,
    '  ┃',
    '  ┃   Allow once   Allow always   Reject                                 ctrl+f fullscreen  ⇆ select  enter confirm',
    '  ┃',
  ].join('\n'),
};

describe('reading the screens the real CLIs drew', () => {
  it('has recordings of each CLI Drover integrates with', () => {
    expect([...new Set(recorded.map((r) => r.profileId))].sort()).toEqual(['claude', 'codex', 'copilot', 'gemini', 'opencode']);
  });

  describe.each(recorded)('$folder', ({ profileId, screens }) => {
    const read = (name: string): ScreenReading => {
      const text = screens[name];
      if (text === undefined) throw new Error(`no recorded screen ${name}`);
      return readScreen(text, profile(profileId));
    };
    const named = (prefix: string) => Object.keys(screens).filter((name) => name.startsWith(prefix));

    it('every first-run dialog is a dialog, never an empty prompt', () => {
      expect(named('first-run').length > 0).toBe(HAS_FIRST_RUN_DIALOGS[profileId]);
      for (const name of named('first-run')) {
        expect({ name, ...read(name) }).toMatchObject({ name, dialog: true });
        expect(showsEmptyPrompt(read(name))).toBe(false);
      }
    });

    it('the idle prompt is an empty prompt: at start, after the first run, after a long idle, after a resume', () => {
      for (const name of ['idle', 'ready-after-first-run', 'idle-after-75s', 'resumed']) {
        expect({ name, empty: showsEmptyPrompt(read(name)), limits: read(name).limitLines }).toEqual({ name, empty: true, limits: [] });
      }
    });

    it('a turn in progress is never an empty prompt to type into, and shows busy where the CLI draws a busy line', () => {
      expect(showsEmptyPrompt(read('busy'))).toBe(false);
      if (SHOWS_BUSY_LINE[profileId]) expect(read('busy').busy).toBe(true);
    });

    it('an approval dialog is a dialog, for its own shell and for a Drover tool', () => {
      for (const name of ['approval', 'drover-tool-approval']) {
        expect({ name, dialog: read(name).dialog }).toEqual({ name, dialog: true });
        expect(showsEmptyPrompt(read(name))).toBe(false);
      }
    });

    it('after an API error it is not busy: back at its prompt, or asking what to do', () => {
      expect(read('api-error').busy).toBe(false);
      expect(showsEmptyPrompt(read('api-error')) || read('api-error').dialog).toBe(true);
    });

    it("the words of a limit the agent merely shows (a file it cats, its answer) are no limit, below its prompt or a dialog", () => {
      const shown = AGENT_SHOWS_LIMIT_WORDS[profileId];
      if (shown === undefined) throw new Error(`no agent output written for ${profileId}`);
      for (const name of ['idle', 'busy', 'approval']) {
        expect({ name, limits: readScreen(`${shown}\n${screens[name] ?? ''}`, profile(profileId)).limitLines }).toEqual({ name, limits: [] });
      }
    });

    it('the words of a limit in an approval dialog (a command the agent asks to run) are no limit', () => {
      const asked = AGENT_ASKS_TO_SHOW_LIMIT_WORDS[profileId];
      if (asked === undefined) throw new Error(`no approval dialog written for ${profileId}`);
      expect(readScreen(`${screens['idle'] ?? ''}\n${asked}`, profile(profileId)).limitLines).toEqual([]);
    });

    it('a usage limit reads as limited, with its reset time where the CLI names one', () => {
      const [limit] = read('usage-limit').limitLines;
      expect(limit).toBeDefined();
      const tracker = new LimitLineTracker();
      tracker.turnStarted();
      const found = tracker.note(read('usage-limit').limitLines, Date.now());
      const next = detectState(READY, { kind: 'screen', reading: read('usage-limit'), newLimit: found, signalsDecide: true }, Date.now());
      expect(next?.state).toBe('limited');
      if (LIMIT_NAMES_RESET[profileId]) expect(next?.limitResetsAt).toBeGreaterThan(Date.now());
      else expect(next?.limitResetsAt).toBeNull();
    });
  });
});

describe('usage-limit lines, as the real CLIs word them (from their recorded screens and binaries)', () => {
  const limits = (id: string, text: string) => readScreen(text, profile(id)).limitLines.map((l) => l.line);

  it('Claude Code: every window it names is a limit; a warning is not', () => {
    for (const line of [
      "You've hit your session limit · resets 2:48pm (Europe/Paris)",
      "You've hit your weekly limit · resets Dec 3, 12:50pm (Europe/Paris)",
      "You've hit your Opus limit · resets Dec 1, 1:50pm (Europe/Paris)",
      "You've hit your Sonnet limit · resets Dec 2, 8:31pm (Europe/Paris)",
      "API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later.",
    ]) {
      expect(limits('claude', `❯ go on with the refactor\n  ⎿  ${line}`)).toEqual([`⎿  ${line}`]);
      // A prompt long enough to wrap: its lines are indented under the echo.
      expect(limits('claude', `❯ go on with the refactor of\n  the cart and its tests\n  ⎿  ${line}`)).toEqual([`⎿  ${line}`]);
    }
    expect(limits('claude', "You've used 91% of your session limit · resets 4:18pm (Europe/Paris)")).toEqual([]);
    expect(limits('claude', 'Approaching session limit · resets 2:49pm (Europe/Paris)')).toEqual([]);
  });

  it('Codex: the limit line with its time, not the quota line shown while usable', () => {
    expect(limits('codex', '■ You’ve hit your usage limit. Try again at 1:46 PM.')).toEqual(['■ You’ve hit your usage limit. Try again at 1:46 PM.']);
    expect(limits('codex', '  ⚠ 5h limit: only <1% left · resets at 13:46 · /status')).toEqual([]);
  });

  it('OpenCode: a retry that waits minutes or hours, not one of seconds after a passing error', () => {
    const footer = (wait: string) => `   ⬝⬝⬝⬝⬝■■■ You exceeded your current quota. [retrying in ${wait} attempt #1]      esc interrupt`;
    const underInput = (wait: string) => `  ┃  Build · Fake Sonnet Fake\n  ╹${'▀'.repeat(40)}  \n${footer(wait)}`;
    expect(limits('opencode', underInput('2h 59m'))).toEqual([footer('2h 59m').trim()]);
    expect(limits('opencode', underInput('5m'))).toHaveLength(1);
    expect(limits('opencode', underInput('2s'))).toEqual([]);
  });

  it("Copilot CLI: its own plan's rate-limit dialog, as its bundle draws it in place of the input", () => {
    const dialog = copilotDialog('Switch to auto mode?', [
      "You've been rate limited on the current model. Would you like to switch to auto mode to continue?",
      '',
      '❯ 1. Yes',
      '  2. Yes (always)',
      '  3. No',
    ]);
    expect(limits('copilot', ` ❯ go on with the refactor\n\n${dialog}`)).toEqual([expect.stringMatching(/^│ You've been rate limited on the current model\. Would you/)]);
  });

  it("Copilot CLI: the rate-limit dialog with its rule inset otherwise or blank rows around it, never nested in a box nor off the left edge", () => {
    const row = (text: string) => `│ ${text.padEnd(COPILOT_WIDTH - 4)} │`;
    const blank = row('');
    const body = "You've been rate limited on the current model. Would you like to switch to auto mode to continue?";
    const dialog = (rule: string, between: { aboveRule?: string[]; belowRule?: string[] } = {}): string[] => [
      `╭${'─'.repeat(COPILOT_WIDTH - 2)}╮`,
      row('Switch to auto mode?'),
      ...(between.aboveRule ?? []),
      rule,
      ...(between.belowRule ?? []),
      row(body),
      blank,
      row('❯ 1. Yes'),
      row('  3. No'),
      blank,
      row('↑/↓ to navigate · enter to select · esc to cancel'),
      `╰${'─'.repeat(COPILOT_WIDTH - 2)}╯`,
    ];
    const limitOf = (lines: string[]) => limits('copilot', ` ❯ go on with the refactor\n\n${lines.join('\n')}`);
    const found = [expect.stringMatching(/^│ You've been rate limited on the current model\. Would you/)];
    for (const rule of [`│${'─'.repeat(COPILOT_WIDTH - 2)}│`, `│ ${'─'.repeat(COPILOT_WIDTH - 4)} │`, `│   ${'─'.repeat(COPILOT_WIDTH - 8)}   │`]) {
      expect(limitOf(dialog(rule))).toEqual(found);
      expect(limitOf(dialog(rule, { aboveRule: [blank], belowRule: [blank, blank] }))).toEqual(found);
    }
    const drawn = dialog(`│ ${'─'.repeat(COPILOT_WIDTH - 4)} │`, { belowRule: [blank] });
    // The same rows inside an approval dialog's box (what an agent asks to run), or one column in.
    expect(limitOf([`╭${'─'.repeat(COPILOT_WIDTH + 2)}╮`, ...drawn.map((line) => `│ ${line} │`), `╰${'─'.repeat(COPILOT_WIDTH + 2)}╯`])).toEqual([]);
    expect(limitOf(drawn.map((line) => ` ${line}`))).toEqual([]);
    // A row that is no rule between title and body: not that dialog.
    expect(limitOf(dialog(row('─── a line the agent wrote')))).toEqual([]);
  });

  it('Gemini CLI: the limit dialog, with the reset on its next line', () => {
    const [limit] = readScreen('│ Usage limit reached for all Pro models.      │\n│ Access resets at 1:01 PM UTC.       │', profile('gemini')).limitLines;
    expect(limit?.context).toMatch(/Usage limit reached for all Pro models\..*Access resets at 1:01 PM UTC\./);
  });
});

describe('screens of agents without real-CLI recordings (Aider, a shell)', () => {
  it('Aider: its prompt on the last line, its yes/no question', () => {
    expect(showsEmptyPrompt(readScreen('Aider v0.86.1\nMain model: claude-sonnet-4 with diff edit format\n> ', profile('aider')))).toBe(true);
    expect(showsEmptyPrompt(readScreen('> fix the failing test\n\nWaiting for claude-sonnet-4', profile('aider')))).toBe(false);
    expect(readScreen('Add src/app.py to the chat? (Y)es/(N)o/(D)on\'t ask again [Yes]: ', profile('aider')).dialog).toBe(true);
  });

  it('a shell: the prompt only when it is the last line', () => {
    expect(showsEmptyPrompt(readScreen('me@box:~/shop$ ls\nREADME.md  src\nme@box:~/shop$ ', profile('shell')))).toBe(true);
    expect(showsEmptyPrompt(readScreen('me@box:~/shop$ make\nbuilding…', profile('shell')))).toBe(false);
  });

  it('a shell: busy while a command runs (its prompt gone), which is all a profile without a busy pattern can tell', () => {
    const unfollowed = { ...profile('shell'), wakeAs: 'prompt' as const };
    expect(readScreen('me@box:~/shop$ sleep 8', unfollowed).busy).toBe(true);
    expect(detectState(READY, screen({ busy: readScreen('me@box:~/shop$ sleep 8', unfollowed).busy }), NOW)).toEqual(BUSY);
    expect(readScreen('me@box:~/shop$ sleep 8\nme@box:~/shop$ ', unfollowed).busy).toBe(false);
    // A shell whose keys Drover follows is busy from its Enter ('submitted'): its prompt is also gone
    // while a line is typed, which must neither make it busy nor end a turn at every pause.
    expect(readScreen('me@box:~/shop$ git comm', profile('shell')).busy).toBe(false);
    expect(detectState(READY, { kind: 'submitted' }, NOW)).toEqual(BUSY);
  });

});

const NOW = Date.UTC(2026, 10, 29, 15, 0);
const STARTING: DetectedState = { state: 'starting', needsInput: false, limitResetsAt: null };
const READY: DetectedState = { state: 'ready', needsInput: false, limitResetsAt: null };
const BUSY: DetectedState = { state: 'busy', needsInput: false, limitResetsAt: null };
const NEEDS_INPUT: DetectedState = { ...READY, needsInput: true };
const reading = (over: Partial<ScreenReading>): ScreenReading => ({ prompt: false, busy: false, dialog: false, dialogTexts: 0, limitLines: [], ...over });
const screen = (over: Partial<ScreenReading>, signalsDecide = false, newLimit: { line: string; context: string } | null = null) =>
  ({ kind: 'screen', reading: reading(over), newLimit, signalsDecide }) as const;

describe('detectState: the CLI’s own signals', () => {
  it('hooks: a prompt makes it busy, the end of the turn ready, a permission dialog needs input', () => {
    expect(detectState(READY, { kind: 'hook', event: 'prompt-submitted' }, NOW)).toEqual(BUSY);
    expect(detectState(BUSY, { kind: 'hook', event: 'stopped' }, NOW)).toEqual(READY);
    expect(detectState(BUSY, { kind: 'hook', event: 'needs-input' }, NOW)).toEqual(NEEDS_INPUT);
  });

  it('a session start says nothing by itself: CLIs report it before their prompt is drawn', () => {
    expect(detectState(STARTING, { kind: 'hook', event: 'session-start' }, NOW)).toBeNull();
  });

  it('a failed turn ends Busy: ready after an API error, limited (with the printed reset) after a rate limit', () => {
    expect(detectState(BUSY, { kind: 'hook', event: 'stop-failed', error: 'server_error' }, NOW)).toEqual(READY);
    expect(detectState(BUSY, { kind: 'hook', event: 'stop-failed', error: 'rate_limit', message: "You've hit your session limit · resets 8pm (UTC)" }, NOW)).toEqual({
      state: 'limited',
      needsInput: false,
      limitResetsAt: Date.UTC(2026, 10, 29, 20, 0),
    });
    expect(detectState(BUSY, { kind: 'hook', event: 'stop-failed', error: 'rate_limit', message: 'API Error: Request rejected (429)' }, NOW)).toEqual({
      state: 'limited',
      needsInput: false,
      limitResetsAt: null,
    });
  });

  it('a turn that ended well lifts a limit: the account answers again', () => {
    expect(detectState({ state: 'limited', needsInput: false, limitResetsAt: NOW + 60_000 }, { kind: 'hook', event: 'stopped' }, NOW)).toEqual(READY);
  });

  it('Codex’s status reports: working, blocked on a permission, done; an error keeps a limit until its reset', () => {
    expect(detectState(READY, { kind: 'program', state: 'working' }, NOW)).toEqual(BUSY);
    expect(detectState(BUSY, { kind: 'program', state: 'blocked' }, NOW)).toEqual(NEEDS_INPUT);
    expect(detectState(BUSY, { kind: 'program', state: 'done' }, NOW)).toEqual(READY);
    expect(detectState({ state: 'limited', needsInput: false, limitResetsAt: NOW + 60_000 }, { kind: 'program', state: 'error' }, NOW)).toBeNull();
  });
});

describe('detectState: the screen', () => {
  it('decides busy and ready for CLIs without signals, and at start for all', () => {
    expect(detectState(STARTING, screen({ prompt: true }), NOW)).toEqual(READY);
    expect(detectState(STARTING, screen({ prompt: true }, true), NOW)).toEqual(READY);
    expect(detectState(READY, screen({ busy: true, prompt: true }), NOW)).toEqual(BUSY);
    expect(detectState(READY, screen({}), NOW)).toBeNull();
  });

  it('leaves busy and ready to the signals once they spoke, but reads dialogs and clears them', () => {
    expect(detectState(BUSY, screen({ prompt: true }, true), NOW)).toBeNull();
    expect(detectState(BUSY, screen({ dialog: true }, true), NOW)).toEqual(NEEDS_INPUT);
    // A denied permission fires no hook: the screen sees the dialog gone.
    expect(detectState(NEEDS_INPUT, screen({ prompt: true }, true), NOW)).toEqual(READY);
    expect(detectState(NEEDS_INPUT, screen({ busy: true }, true), NOW)).toEqual(BUSY);
  });

  it('reads a new limit line as limited, and lifts a limit without a reset once its line is gone', () => {
    const line = { line: '■ You’ve hit your usage limit. Try again at 3:21 PM.', context: '■ You’ve hit your usage limit. Try again at 3:21 PM.' };
    expect(detectState(READY, screen({ limitLines: [line] }, true, line), NOW)).toMatchObject({ state: 'limited', limitResetsAt: expect.any(Number) });
    const unknownReset: DetectedState = { state: 'limited', needsInput: false, limitResetsAt: null };
    expect(detectState(unknownReset, screen({ prompt: true, limitLines: [line] }), NOW)).toBeNull();
    expect(detectState(unknownReset, screen({ prompt: true }), NOW)).toEqual(READY);
    const knownReset: DetectedState = { state: 'limited', needsInput: false, limitResetsAt: NOW + 60_000 };
    expect(detectState(knownReset, screen({ prompt: true }), NOW)).toBeNull();
    expect(detectState(knownReset, screen({ prompt: true }), NOW + 120_000)).toEqual(READY);
  });
});

describe('LimitLineTracker', () => {
  const limit = (text: string) => ({ line: text, context: text });

  it('takes lines on screen before the first turn as history (a resumed transcript)', () => {
    const tracker = new LimitLineTracker();
    expect(tracker.note([limit("You've hit your session limit · resets 8pm")], NOW)).toBeNull();
    tracker.turnStarted();
    expect(tracker.note([limit("You've hit your session limit · resets 8pm")], NOW)).toBeNull();
  });

  it('finds a line that shows more often than before, also one that came back (a dialog shown again)', () => {
    const tracker = new LimitLineTracker();
    tracker.turnStarted();
    const dialog = limit('Usage limit reached for all Pro models.');
    expect(tracker.note([dialog], NOW)).toEqual(dialog);
    expect(tracker.note([dialog], NOW)).toBeNull();
    expect(tracker.note([], NOW)).toBeNull();
    expect(tracker.note([dialog], NOW)).toEqual(dialog);
  });

  it('ignores a redraw of a limit whose reset already passed', () => {
    const tracker = new LimitLineTracker();
    tracker.turnStarted();
    const old = limit("You've hit your session limit · resets 3:05pm (UTC)");
    expect(tracker.note([old], NOW)).toEqual(old);
    tracker.note([], NOW + 60 * 60_000);
    expect(tracker.note([old], NOW + 60 * 60_000)).toBeNull();
  });
});
