import { describe, expect, it } from 'vitest';
import { makeAgent } from '../testing/fixtures';
import { soloAgentId } from './workspaceView';

const agents = [makeAgent({ id: 'a-ada' }), makeAgent({ id: 'a-bo' })];

describe('soloAgentId', () => {
  it('shows every pane in the grid unless one is maximised', () => {
    expect(soloAgentId(agents, undefined, 'grid')).toBeNull();
    expect(soloAgentId(agents, 'a-bo', 'grid')).toBe('a-bo');
  });

  it('puts one pane in front in the focus and tabs layouts (a phone’s too): the chosen one, else the first, never one that is gone', () => {
    for (const layout of ['focus', 'tabs'] as const) {
      expect(soloAgentId(agents, 'a-bo', layout)).toBe('a-bo');
      expect(soloAgentId(agents, undefined, layout)).toBe('a-ada');
      expect(soloAgentId(agents, 'a-removed', layout)).toBe('a-ada');
      expect(soloAgentId([], undefined, layout)).toBeNull();
    }
    expect(soloAgentId(agents, 'a-removed', 'grid')).toBeNull();
  });
});
