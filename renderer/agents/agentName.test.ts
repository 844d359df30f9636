import { describe, expect, it } from 'vitest';
import { agentNameProblem } from './agentName';

describe('agentNameProblem', () => {
  it('accepts a new name', () => {
    expect(agentNameProblem(' backend ', ['frontend'])).toBeNull();
  });

  it('asks for a name and refuses one the project already uses, whatever its case', () => {
    expect(agentNameProblem('   ', [])).toBe('Give the agent a name.');
    expect(agentNameProblem('Backend', ['backend'])).toBe('This project already has an agent named Backend.');
  });
});
