import { describe, expect, it } from 'vitest';
import { runTaskProblems } from './runTaskDraft';

const draft = (changes: Partial<Parameters<typeof runTaskProblems>[0]>) => ({ command: 'make', label: '', ownerAgentId: '', cwd: '', ...changes });

describe('runTaskProblems', () => {
  it('asks for a command, and keeps label and command within the contract', () => {
    expect(runTaskProblems(draft({}))).toEqual({});
    expect(runTaskProblems(draft({ command: '   ' }))).toEqual({ command: 'Type the command to run.' });
    expect(runTaskProblems(draft({ command: 'x'.repeat(100_001) })).command).toMatch(/too long/);
    expect(runTaskProblems(draft({ label: 'l'.repeat(201) }))).toEqual({ label: 'Keep the label to 200 characters.' });
  });
});
