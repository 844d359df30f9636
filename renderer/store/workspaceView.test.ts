import { describe, expect, it } from 'vitest';
import { makeAgent } from '../testing/fixtures';
import { soloAgentId } from './workspaceView';

const agents = [makeAgent({ id: 'a-ada' }), makeAgent({ id: 'a-bo' })];

describe('soloAgentId', () => {
  it('shows every pane on a wide window unless one is maximised', () => {
    expect(soloAgentId(agents, undefined, false)).toBeNull();
    expect(soloAgentId(agents, 'a-bo', false)).toBe('a-bo');
  });

  it('shows one pane on a phone: the chosen one, else the first, never one that is gone', () => {
    expect(soloAgentId(agents, 'a-bo', true)).toBe('a-bo');
    expect(soloAgentId(agents, undefined, true)).toBe('a-ada');
    expect(soloAgentId(agents, 'a-removed', true)).toBe('a-ada');
    expect(soloAgentId(agents, 'a-removed', false)).toBeNull();
    expect(soloAgentId([], undefined, true)).toBeNull();
  });
});
