import { describe, expect, it } from 'vitest';
import type { Task } from '../../../shared/entities/tasks';
import { makeTask } from '../../testing/fixtures';
import { addToast, dismissToast, MAX_TOASTS } from './toastList';

const task = (id: string, state: Task['state'] = 'failed') => makeTask({ id, state });

describe('toast list', () => {
  it('keeps one toast per task, newest last, capped', () => {
    let toasts = addToast([], task('t-1', 'failed'));
    toasts = addToast(toasts, task('t-2'));
    toasts = addToast(toasts, task('t-1', 'succeeded'));
    expect(toasts.map((t) => `${t.key} ${t.task.state}`)).toEqual(['t-2 failed', 't-1 succeeded']);
    for (let i = 3; i < 10; i++) toasts = addToast(toasts, task(`t-${i}`));
    expect(toasts).toHaveLength(MAX_TOASTS);
    expect(toasts.at(-1)?.key).toBe('t-9');
  });

  it('dismisses by key', () => {
    const toasts = addToast(addToast([], task('t-1')), task('t-2'));
    expect(dismissToast(toasts, 't-1').map((t) => t.key)).toEqual(['t-2']);
  });
});
