import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { ChannelWake } from '../../../shared/contract/wake';
import { DroverRequestError } from '../../../shared/protocol';
import type { DroverCaller } from '../socketClient';

/** Claude Code's channel contract (code.claude.com/docs/en/channels-reference): the capability and its event. */
export const CHANNEL_CAPABILITY = 'claude/channel';
export const CHANNEL_NOTIFICATION = 'notifications/claude/channel';

/** What the model is told about the channel's events (Claude Code shows servers' instructions to it). */
export const CHANNEL_INSTRUCTIONS =
  'An event from the drover channel is a wake: it names messages waiting in your Drover inbox (task results, notes, questions from other agents). ' +
  'Act on it as on a prompt from the person; read_inbox has the full texts, and a question is answered with the reply tool.';

/**
 * Whether the CLI said at initialize that it takes channel events. Channels arrive silently dropped
 * when a CLI does not run them (Claude Code without a claude.ai login, or without the opt-in flag),
 * so nothing else counts as a yes.
 */
export function takesChannelEvents(capabilities: ClientCapabilities | undefined): boolean {
  return capabilities?.experimental?.[CHANNEL_CAPABILITY] !== undefined;
}

/** How long one wait for a wake lasts before asking again (the host holds the channel open meanwhile). */
const POLL_MS = 60_000;
/** After Drover could not be reached: wait this long before holding the channel open again. */
const RETRY_MS = 1_000;

/**
 * Holds the agent's wake channel open at Drover and sends each wake Drover hands over to the CLI
 * (`send`), reporting whether it went. Runs until `stop`.
 */
export function relayChannelWakes(link: DroverCaller, send: (wake: ChannelWake) => Promise<void>, log: (line: string) => void): { stop(): void } {
  let stopped = false;
  const relay = async () => {
    while (!stopped) {
      let handed: ChannelWake | null;
      try {
        handed = await link.call('awaitChannelWake', { timeoutMs: POLL_MS });
      } catch (error) {
        if (stopped) return;
        // Drover refused it (an older Drover, an ended session): asking again would be refused again.
        if (error instanceof DroverRequestError && error.code !== 'internal') {
          log(`no wake channel: ${error.message}; Drover types this agent's wakes`);
          return;
        }
        log(`the wake channel is closed for now (${error instanceof Error ? error.message : String(error)}); Drover types wakes meanwhile`);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
        continue;
      }
      if (!handed) continue;
      const sent = await send(handed).then(
        () => ({ sent: true as const }),
        (error: unknown) => ({ sent: false as const, error: error instanceof Error ? error.message : String(error) }),
      );
      await link.call('reportChannelWake', { deliveryId: handed.deliveryId, ...sent }).catch((error: unknown) => {
        log(`could not report wake ${handed.deliveryId} to Drover: ${error instanceof Error ? error.message : String(error)}`);
      });
    }
  };
  void relay();
  return {
    stop: () => {
      stopped = true;
    },
  };
}
