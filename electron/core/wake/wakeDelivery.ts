import type { WakeStyle } from '../../../shared/entities/profiles';
import type { PromptTimings, PromptTyping } from '../sessions/promptTyping';
import type { WakeChannels } from './wakeChannels';

/**
 * How a wake reaches an agent: typed into its terminal, or pushed through its CLI's channel. Either
 * way the answer reads as typing's (an `unconfirmed` one says in full how it went), and
 * `onDelivering` runs once, when the wake is handed over.
 */
export interface WakeDelivery {
  /**
   * Delivers the text `compose` writes for how the agent takes a wake (its profile's style), if it
   * is positively ready for it (else `not-ready`, with why not): the one readiness check of a wake.
   */
  deliver(agentId: string, compose: (style: WakeStyle) => string, timings: PromptTimings, onDelivering?: () => void): Promise<PromptTyping>;
  /** Whether the agent's CLI goes on by itself when a usage limit resets (Claude Code since 2.1.234). */
  continuesAtLimitReset(agentId: string): boolean;
}

/** The agent terminals a wake is typed into (the session service). */
export interface WakeTerminal {
  /** Types the prompt if the agent is positively at an empty prompt; `onTyping` runs before any key. */
  typePrompt(agentId: string, compose: (style: WakeStyle) => string, timings: PromptTimings, onTyping?: () => void): Promise<PromptTyping>;
  /** Null when the agent is at an empty prompt; otherwise why not, in a person's words. */
  readiness(agentId: string, keysQuietMs: number): Promise<string | null>;
  continuesAtLimitReset(agentId: string): boolean;
}

/** Every wake typed into the terminal: the tested path, and the only one for CLIs without channels. */
export function typedWakes(terminal: WakeTerminal): WakeDelivery {
  return {
    deliver: async (agentId, compose, timings, onDelivering) => {
      const typing = await terminal.typePrompt(agentId, compose, timings, onDelivering);
      return typing.outcome === 'unconfirmed' ? { outcome: 'unconfirmed', why: `Typed in and submitted, but ${typing.why}` } : typing;
    },
    continuesAtLimitReset: (agentId) => terminal.continuesAtLimitReset(agentId),
  };
}

/**
 * Through the agent's channel while its MCP server holds one open (its CLI declared Claude Code's
 * channel capability), else typed. A push that reached nothing is typed instead, in the same
 * attempt; one handed over but unconfirmed is never typed as well (it may have arrived).
 */
export function channelOrTypedWakes(channels: WakeChannels, terminal: WakeTerminal, log: (line: string) => void): WakeDelivery {
  const typed = typedWakes(terminal);
  return {
    continuesAtLimitReset: typed.continuesAtLimitReset,
    deliver: async (agentId, compose, timings, onDelivering) => {
      if (!channels.isOpen(agentId)) return typed.deliver(agentId, compose, timings, onDelivering);
      const why = await terminal.readiness(agentId, timings.keysQuietMs);
      if (why) return { outcome: 'not-ready', why };
      // A channel event is a prompt to the model, whatever the profile types.
      const push = await channels.push(agentId, compose('prompt'), timings.confirmMs);
      if (push.outcome === 'not-sent') {
        log(`the wake channel of agent ${agentId} did not take the wake (${push.why}); typing it`);
        return typed.deliver(agentId, compose, timings, onDelivering);
      }
      onDelivering?.();
      return push.outcome === 'sent' ? { outcome: 'submitted' } : { outcome: 'unconfirmed', why: `Pushed through its channel, but ${push.why}` };
    },
  };
}
