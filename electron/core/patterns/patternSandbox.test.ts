import { afterEach, describe, expect, it } from 'vitest';
import { readScreen } from '../sessions/stateDetector';
import { PatternSandbox } from './patternSandbox';

describe('PatternSandbox', () => {
  const sandboxes: PatternSandbox[] = [];
  const sandbox = (timeLimitMs?: number) => {
    const created = new PatternSandbox(timeLimitMs === undefined ? {} : { timeLimitMs });
    sandboxes.push(created);
    return created;
  };
  afterEach(() => sandboxes.splice(0).forEach((s) => s.close()));

  it('finds every match with its place and length, as matchAll with gm would', () => {
    const text = 'one > \ntwo\nthree > ';
    const found = sandbox().matchAll('^\\w+ >', text);
    expect(found).toEqual({ ok: true, matches: [...text.matchAll(/^\w+ >/gm)].map((m) => ({ index: m.index, length: m[0].length })) });
    expect(sandbox().matchAll('x', text)).toEqual({ ok: true, matches: [] });
  });

  it('stops after an empty match and at the given maximum', () => {
    const s = sandbox();
    expect(s.matchAll('x*', 'abc')).toEqual({ ok: true, matches: [{ index: 0, length: 0 }] });
    expect(s.matchAll('b', 'bbbb', 2)).toEqual({ ok: true, matches: [{ index: 0, length: 1 }, { index: 1, length: 1 }] });
  });

  it('stops a catastrophically backtracking pattern, reports it once, and keeps serving other patterns', () => {
    const s = sandbox(100);
    const reported: string[] = [];
    s.onRunaway((source) => reported.push(source));
    const runaway = s.matchAll('^(a|aa)+$', `${'a'.repeat(60)}b`);
    expect(runaway).toMatchObject({ ok: false, reason: expect.stringContaining('ran longer than 100 ms') });
    // Set aside: it is not run again, and says why.
    expect(s.matchAll('^(a|aa)+$', 'aa')).toEqual(runaway);
    expect(reported).toEqual(['^(a|aa)+$']);
    expect(s.matchAll('b$', `${'a'.repeat(60)}b`)).toEqual({ ok: true, matches: [{ index: 60, length: 1 }] });
  });

  it('refuses a pattern that is not a regular expression', () => {
    expect(sandbox().matchAll('(', 'text')).toEqual({ ok: false, reason: '/(/ is not a valid regular expression' });
  });

  it("is what reads screens: a person's runaway prompt pattern reads as no prompt instead of freezing the host", () => {
    const screen = `${'a'.repeat(5000)}b\n> `;
    const reading = readScreen(screen, { promptPattern: '^(a|aa)+$', busyPattern: 'working', needsInputPattern: null, usageLimitPattern: null });
    expect(reading).toMatchObject({ prompt: false, busy: false, dialog: false, limitLines: [] });
  });
});
