import { describe, expect, it } from 'vitest';
import { DEFAULT_PROJECT_SETTINGS } from '../../shared/entities/projects';
import { changedSettings } from './changedSettings';

describe('changedSettings', () => {
  it('keeps only what the person changed, so a setting changed elsewhere meanwhile is not written back', () => {
    const shown = { ...DEFAULT_PROJECT_SETTINGS, mergeCheckCommand: 'npm test', worktreesDir: null };
    expect(changedSettings(shown, { mergeCheckCommand: 'npm test', worktreesDir: '/work/trees', checkpointDaysKept: null })).toEqual({ worktreesDir: '/work/trees' });
  });

  it('sends a value cleared to empty or null', () => {
    const shown = { ...DEFAULT_PROJECT_SETTINGS, mergeCheckCommand: 'npm test', checkpointDaysKept: 30 };
    expect(changedSettings(shown, { mergeCheckCommand: '', checkpointDaysKept: null })).toEqual({ mergeCheckCommand: '', checkpointDaysKept: null });
  });
});
