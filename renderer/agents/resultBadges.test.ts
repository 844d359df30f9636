import { describe, expect, it } from 'vitest';
import { makeTask } from '../testing/fixtures';
import { resultBadges } from './resultBadges';

const shown = (badges: ReturnType<typeof resultBadges>) => badges.filter((badge) => badge.count > 0).map(({ tone, text, name }) => ({ tone, text, name }));

describe('resultBadges', () => {
  it('says how each unread result ended, in its own tone', () => {
    expect(shown(resultBadges([makeTask({ state: 'succeeded' })]))).toEqual([
      { tone: 'done', text: 'Task done', name: 'Task done: 1 result not read yet' },
    ]);
    expect(shown(resultBadges([makeTask({ id: 't-1', state: 'failed' }), makeTask({ id: 't-2', state: 'failed', label: 'lint' }), makeTask({ id: 't-3', state: 'succeeded' })]))).toEqual([
      { tone: 'done', text: 'Task done', name: 'Task done: 1 result not read yet' },
      { tone: 'failed', text: 'Tasks failed 2', name: 'Task failed: 2 results not read yet' },
    ]);
    expect(shown(resultBadges([makeTask({ state: 'cancelled' }), makeTask({ id: 't-2', state: 'interrupted' })]))).toEqual([
      { tone: 'cancelled', text: 'Task cancelled', name: 'Task cancelled: 1 result not read yet' },
      { tone: 'interrupted', text: 'Task interrupted', name: 'Task interrupted: 1 result not read yet' },
    ]);
  });
});
