import type { Agent } from '../../shared/entities/agents';
import { useAccountPauses } from './pausedAccounts';

/** In the pane header while the person paused the account the agent spends: Drover wakes it no more. */
export function AccountPausedNote({ agent }: { agent: Pick<Agent, 'profileId' | 'name'> }) {
  const account = useAccountPauses().accountOf(agent);
  if (!account?.paused) return null;
  const detail = `${account.label} is paused: Drover types no wake into ${agent.name} or any other agent of it until you resume it (Needs you, or the agent's inbox).`;
  return (
    <span className="agent-pane__account-paused" role="note" title={detail} aria-label={detail}>
      {account.label} paused
    </span>
  );
}
