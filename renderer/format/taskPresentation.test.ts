import { describe, expect, it } from 'vitest';
import { taskOutcome } from './taskPresentation';

describe('taskOutcome', () => {
  it('names the exit code or the signal, and nothing before the end', () => {
    expect(taskOutcome({ exitCode: 3, signal: null })).toBe('exit 3');
    expect(taskOutcome({ exitCode: 0, signal: null })).toBe('exit 0');
    expect(taskOutcome({ exitCode: null, signal: 'SIGTERM' })).toBe('SIGTERM');
    expect(taskOutcome({ exitCode: null, signal: null })).toBeNull();
  });
});
