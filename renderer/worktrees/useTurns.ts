import { useCallback } from 'react';
import type { DroverEvent } from '../../shared/events';
import type { DiffComment, Turn } from '../../shared/turns';
import { useBridge } from '../store/StoreContext';
import { useFollowedList, type FollowedList } from './useFollowedList';

/** The agent's checkpoints, oldest first, kept up to date. */
export function useTurns(agentId: string): FollowedList<Turn> {
  const bridge = useBridge();
  const changed = useCallback((event: DroverEvent) => event.name === 'agentTurnChanged' && event.agentId === agentId, [agentId]);
  const read = useCallback(async () => (await bridge.call('listTurns', { agentId })).turns, [bridge, agentId]);
  return useFollowedList(agentId, changed, read);
}

/** The comments on the agent's diff, kept up to date. */
export function useDiffComments(agentId: string): FollowedList<DiffComment> {
  const bridge = useBridge();
  const changed = useCallback((event: DroverEvent) => event.name === 'diffCommentChanged' && event.agentId === agentId, [agentId]);
  const read = useCallback(() => bridge.call('listDiffComments', { agentId }), [bridge, agentId]);
  return useFollowedList(agentId, changed, read);
}
