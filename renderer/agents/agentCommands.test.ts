import { describe, expect, it } from 'vitest';
import type { MergeQueueEntry } from '../../shared/entities/mergeQueue';
import { makeAgent, makeSession, makeWorktree } from '../testing/fixtures';
import { agentCommands, layoutCommands } from './agentCommands';

const labels = (commands: ReturnType<typeof agentCommands>) => commands.map((command) => command.label);

describe('agentCommands', () => {
  const alpha = makeAgent({ id: 'a-alpha00', name: 'alpha' });
  const beta = makeAgent({ id: 'a-beta000', name: 'beta' });

  it('offers to review the changes of an agent whose worktree is ready, and of no other', () => {
    const commands = agentCommands([alpha, beta], {}, { [alpha.id]: makeWorktree({ agentId: alpha.id, state: 'ready' }), [beta.id]: makeWorktree({ agentId: beta.id, state: 'creating' }) }, {});
    expect(labels(commands)).toContain('Review alpha’s changes…');
    expect(labels(commands)).not.toContain('Review beta’s changes…');
    expect(commands.find((command) => command.label === 'Review alpha’s changes…')).toMatchObject({ action: 'changes', agent: alpha });
  });

  it('offers to queue a ready worktree for merge, and to take out one that waits or is under way', () => {
    const ready = { [alpha.id]: makeWorktree({ agentId: alpha.id, state: 'ready' }), [beta.id]: makeWorktree({ agentId: beta.id, state: 'ready' }) };
    const queued = (agentId: string, state: MergeQueueEntry['state']) => ({ agentId, state, parentBranch: 'main' }) as MergeQueueEntry;
    const commands = agentCommands([alpha, beta], {}, ready, { [beta.id]: queued(beta.id, 'checking') });
    expect(commands.find((command) => command.label === 'Queue alpha for merge')).toMatchObject({ action: 'queue', agent: alpha });
    expect(labels(commands)).toContain('Remove beta from the merge queue');
    expect(labels(commands)).not.toContain('Queue beta for merge');
    // Handed back (or merged), it may be queued again.
    expect(labels(agentCommands([alpha, beta], {}, ready, { [beta.id]: queued(beta.id, 'handed-back') }))).toContain('Queue beta for merge');
    expect(labels(agentCommands([alpha], {}, {}, {}))).not.toContain('Queue alpha for merge');
  });

  it('offers Stop and Restart for a live agent, Start for one that is not running', () => {
    const commands = agentCommands([alpha, beta], { [alpha.id]: makeSession({ agentId: alpha.id, state: 'ready' }) }, {}, {});
    expect(labels(commands)).toEqual(expect.arrayContaining(['Stop alpha', 'Restart alpha', 'Start beta']));
    expect(labels(commands)).not.toContain('Start alpha');
    expect(labels(commands)).not.toContain('Review alpha’s changes…');
  });

  it('says Hold and Resume for an agent\'s wakes, as its pane and its inbox do', () => {
    const commands = agentCommands([alpha, { ...beta, wakesHeld: true }], {}, {}, {});
    expect(labels(commands)).toEqual(expect.arrayContaining(['Hold alpha’s wakes', 'Resume beta’s wakes']));
  });
});

describe('layoutCommands', () => {
  it('offers the pane layouts not in use', () => {
    expect(layoutCommands('grid').map((command) => command.label)).toEqual(['Layout: Focus', 'Layout: Tabs']);
    expect(layoutCommands('tabs').map((command) => [command.label, command.layout])).toEqual([
      ['Layout: Grid', 'grid'],
      ['Layout: Focus', 'focus'],
    ]);
  });
});
