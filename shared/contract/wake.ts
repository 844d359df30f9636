import { z } from 'zod';
import { AgentIdSchema } from '../entities/ids';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

/**
 * Attributes of a channel event: Claude Code puts each on the `<channel>` tag it shows the model,
 * and takes only identifiers (letters, digits, underscores) as their names.
 */
export const ChannelMetaSchema = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(200));

/** A wake the host hands to the agent's MCP server, to send its CLI as a `notifications/claude/channel` event. */
export const ChannelWakeSchema = z.object({ deliveryId: z.string().min(1).max(100), content: z.string().min(1).max(100_000), meta: ChannelMetaSchema });
export type ChannelWake = z.infer<typeof ChannelWakeSchema>;

export const WAKE_METHODS = {
  /** Delivers the agent's pending messages now if its session is ready (a person's "wake"). */
  wakeAgent: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema, delivered: z.number().int().nonnegative() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /**
   * Long-poll, for an agent's MCP server whose CLI declared Claude Code's channel capability: while
   * this call waits, the agent's wakes go through the channel instead of being typed. Resolves with
   * the next wake to send, or null after the timeout (ask again).
   */
  awaitChannelWake: {
    params: z.object({ timeoutMs: z.number().int().min(0).max(600_000) }).strict(),
    result: ChannelWakeSchema.nullable(),
    kind: 'connection',
    doors: EVERY_DOOR,
    agents: 'own',
  },
  /** The MCP server's answer to a wake it was handed: sent to the CLI, or not (with why). */
  reportChannelWake: {
    params: z
      .discriminatedUnion('sent', [
        z.object({ deliveryId: z.string().min(1).max(100), sent: z.literal(true) }).strict(),
        z.object({ deliveryId: z.string().min(1).max(100), sent: z.literal(false), error: z.string().min(1).max(2_000) }).strict(),
      ]),
    result: z.object({ deliveryId: z.string() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // It acts on the caller's own channel only (the handler takes the agent from the connection).
    agents: 'allowed',
  },
} as const satisfies MethodTable;

export type WakeMethodName = keyof typeof WAKE_METHODS;
