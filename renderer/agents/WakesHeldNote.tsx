import type { Agent } from '../../shared/entities/agents';

/** In the pane header while a person holds the agent's wakes: nothing is typed into it until they resume. */
export function WakesHeldNote({ agent }: { agent: Pick<Agent, 'name' | 'wakesHeld'> }) {
  if (!agent.wakesHeld) return null;
  const detail = `Wakes held: Drover types no message into ${agent.name} until you resume wakes (its inbox, or the palette).`;
  return (
    <span className="agent-pane__held-note" role="note" title={detail} aria-label={detail}>
      Wakes held
    </span>
  );
}
