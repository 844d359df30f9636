import { describe, expect, it } from 'vitest';
import { makeTask } from '../testing/fixtures';
import { resultBadges } from './resultBadges';

const shown = (badges: ReturnType<typeof resultBadges>) => badges.filter((badge) => badge.count > 0).map(({ tone, text, name }) => ({ tone, text, name }));

describe('resultBadges', () => {
  it('says how each new result ended, in its own tone', () => {
    expect(shown(resultBadges([makeTask({ state: 'succeeded' })]))).toEqual([
      { tone: 'done', text: 'Task done', name: 'Task done: 1 new result' },
    ]);
    expect(shown(resultBadges([makeTask({ id: 't-1', state: 'failed' }), makeTask({ id: 't-2', state: 'failed', label: 'lint' })]))).toEqual([
      { tone: 'failed', text: 'Tasks failed 2', name: 'Task failed: 2 new results' },
    ]);
  });

  it('folds results that ended in different ways into one summary, in the tone of the most pressing', () => {
    expect(shown(resultBadges([makeTask({ id: 't-1', state: 'failed' }), makeTask({ id: 't-2', state: 'failed', label: 'lint' }), makeTask({ id: 't-3', state: 'succeeded' })]))).toEqual([
      { tone: 'failed', text: '3 results, 2 failed', name: '3 new results: 2 failed, 1 done' },
    ]);
    expect(shown(resultBadges([makeTask({ state: 'cancelled' }), makeTask({ id: 't-2', state: 'interrupted' }), makeTask({ id: 't-3', state: 'succeeded' })]))).toEqual([
      { tone: 'interrupted', text: '3 results, 1 interrupted', name: '3 new results: 1 interrupted, 1 cancelled, 1 done' },
    ]);
    expect(resultBadges([])).toEqual([]);
  });
});
