import { describe, expect, it } from 'vitest';
import { BUILT_IN_PROFILES } from '../profiles/builtInProfiles';
import { detectState, type DetectedState } from './stateDetector';

const profile = (id: string) => {
  const found = BUILT_IN_PROFILES.find((p) => p.id === id);
  if (!found) throw new Error(id);
  return found;
};
const NOW = Date.UTC(2026, 10, 29, 15, 0);
const starting: DetectedState = { state: 'starting', needsInput: false, limitResetsAt: null };
const ready: DetectedState = { state: 'ready', needsInput: false, limitResetsAt: null };
const busy: DetectedState = { state: 'busy', needsInput: false, limitResetsAt: null };
const screen = (text: string, hooksSeen = false) => ({ kind: 'screen' as const, text, hooksSeen });

/** Screens as these CLIs draw them (trimmed to what the patterns look at). */
const SCREENS = {
  claude: {
    ready: `╭───────────────────────────────────────────╮
│ ✻ Welcome to Claude Code!                 │
╰───────────────────────────────────────────╯

╭───────────────────────────────────────────╮
│ > Try "write a test for <filepath>"       │
╰───────────────────────────────────────────╯
  ? for shortcuts`,
    busy: `> add a retry to the fetcher

✻ Pondering… (12s · ↑ 1.2k tokens · esc to interrupt)

╭───────────────────────────────────────────╮
│ >                                         │
╰───────────────────────────────────────────╯`,
    needsInput: `╭───────────────────────────────────────────╮
│ Edit file src/fetch.ts                    │
│ Do you want to make this edit to fetch.ts?│
│ ❯ 1. Yes                                  │
│   2. No, and tell Claude what to do       │
╰───────────────────────────────────────────╯`,
    limited: `● Working on it
  ⎿  You've hit your session limit · resets 8pm (America/New_York)
     /upgrade to increase your usage limit.`,
  },
  codex: {
    ready: `>_ OpenAI Codex (v0.46.0)
 model: gpt-5-codex   directory: ~/shop

› Ask Codex to do anything
  ⏎ send   ⌃J newline   ⌃T transcript`,
    busy: `• Running npm test

◦ Working (14s • esc to interrupt)

› Ask Codex to do anything`,
    limited: `■ You've hit your usage limit. Upgrade to Pro or try again at 3:05 PM.`,
  },
  aider: {
    ready: `Aider v0.86.1
Main model: claude-sonnet-4 with diff edit format
Repo-map: using 4096 tokens
> `,
    busy: `> fix the failing test

Waiting for claude-sonnet-4`,
    needsInput: `Add src/app.py to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: `,
  },
  gemini: {
    ready: `╭────────────────────────────────────╮
│ >   Type your message or @path/to/file │
╰────────────────────────────────────╯`,
    busy: `⠏ Reading the codebase (esc to cancel, 8s)`,
  },
  shell: {
    ready: `me@box:~/shop$ ls
README.md  src
me@box:~/shop$ `,
  },
};

describe('detectState from the screen (each built-in profile)', () => {
  it('Claude Code: ready, busy, needs input, limited with the reset time', () => {
    expect(detectState(starting, screen(SCREENS.claude.ready), profile('claude'), NOW)).toEqual(ready);
    expect(detectState(ready, screen(SCREENS.claude.busy), profile('claude'), NOW)).toEqual(busy);
    expect(detectState(busy, screen(SCREENS.claude.needsInput), profile('claude'), NOW)).toEqual({ ...ready, needsInput: true });
    expect(detectState(busy, screen(SCREENS.claude.limited), profile('claude'), NOW)).toEqual({
      state: 'limited',
      needsInput: false,
      limitResetsAt: Date.UTC(2026, 10, 30, 1, 0),
    });
  });

  it('Codex: ready, busy, limited', () => {
    expect(detectState(starting, screen(SCREENS.codex.ready), profile('codex'), NOW)).toEqual(ready);
    expect(detectState(ready, screen(SCREENS.codex.busy), profile('codex'), NOW)).toEqual(busy);
    expect(detectState(busy, screen(SCREENS.codex.limited), profile('codex'), NOW)?.state).toBe('limited');
  });

  it('Aider: ready, busy, needs input', () => {
    expect(detectState(starting, screen(SCREENS.aider.ready), profile('aider'), NOW)).toEqual(ready);
    expect(detectState(ready, screen(SCREENS.aider.busy), profile('aider'), NOW)).toEqual(busy);
    expect(detectState(busy, screen(SCREENS.aider.needsInput), profile('aider'), NOW)).toEqual({ ...ready, needsInput: true });
  });

  it('Gemini CLI: ready and busy', () => {
    expect(detectState(starting, screen(SCREENS.gemini.ready), profile('gemini'), NOW)).toEqual(ready);
    expect(detectState(ready, screen(SCREENS.gemini.busy), profile('gemini'), NOW)).toEqual(busy);
  });

  it('Shell: ready at its prompt', () => {
    expect(detectState(starting, screen(SCREENS.shell.ready), profile('shell'), NOW)).toEqual(ready);
  });

  it('says nothing for an unrecognised screen or an unchanged state', () => {
    expect(detectState(ready, screen('compiling 42 files'), profile('claude'), NOW)).toBeNull();
    expect(detectState(ready, screen(SCREENS.claude.ready), profile('claude'), NOW)).toBeNull();
  });
});

describe('detectState from hooks', () => {
  it('follows Claude Code hooks: prompt submitted, stop, notification', () => {
    expect(detectState(ready, { kind: 'hook', event: 'prompt-submitted' }, profile('claude'), NOW)).toEqual(busy);
    expect(detectState(busy, { kind: 'hook', event: 'stopped' }, profile('claude'), NOW)).toEqual(ready);
    expect(detectState(busy, { kind: 'hook', event: 'needs-input' }, profile('claude'), NOW)).toEqual({ ...ready, needsInput: true });
    expect(detectState(starting, { kind: 'hook', event: 'session-start' }, profile('claude'), NOW)).toEqual(ready);
  });

  it('lets hooks decide busy and ready once they have spoken, but still reads limits off the screen', () => {
    expect(detectState(busy, screen(SCREENS.claude.ready, true), profile('claude'), NOW)).toBeNull();
    expect(detectState(busy, screen(SCREENS.claude.limited, true), profile('claude'), NOW)?.state).toBe('limited');
  });

  it('keeps a limited session limited until the reset, whatever the hooks say', () => {
    const limited: DetectedState = { state: 'limited', needsInput: false, limitResetsAt: NOW + 60_000 };
    expect(detectState(limited, { kind: 'hook', event: 'stopped' }, profile('claude'), NOW)).toBeNull();
    expect(detectState(limited, screen(SCREENS.claude.ready), profile('claude'), NOW)).toBeNull();
    expect(detectState(limited, screen(SCREENS.claude.ready), profile('claude'), NOW + 120_000)).toEqual(ready);
  });
});
