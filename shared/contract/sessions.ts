import { z } from 'zod';
import { AgentIdSchema } from '../entities/ids';
import { AgentHookEventSchema, AgentQuotaSchema, AgentSessionSchema } from '../entities/sessions';
import { MAX_TURN_PROMPT_CHARS } from '../turns';
import { TerminalSize } from './fields';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const SESSION_METHODS = {
  /** Starts a session; `resume` continues the agent CLI's own conversation where its id is known. */
  startAgent: {
    params: z.object({ agentId: AgentIdSchema, resume: z.boolean().default(false) }).strict(),
    result: AgentSessionSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** SIGTERM, then SIGKILL after a grace period. */
  stopAgent: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: AgentSessionSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  restartAgent: {
    params: z.object({ agentId: AgentIdSchema, resume: z.boolean().default(true) }).strict(),
    result: AgentSessionSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  writeAgentInput: {
    params: z.object({ agentId: AgentIdSchema, data: z.string().min(1).max(1_000_000) }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // Typing into a terminal, or reading one, is the person's.
    agents: 'refused',
  },
  /**
   * The size this client would give the agent's PTY. Several clients may view one terminal (a
   * window and a phone): the PTY follows the one that last typed into it or resized it on purpose.
   * `byLayout`: the client's pane was merely laid out (it attached, the page's layout changed), so
   * the PTY takes this size only if this client owns it already or no client does; typing
   * (writeAgentInput) makes a client the owner at the size it last gave. Whenever the PTY changes
   * size, its stream says so (see terminalSizeNote).
   */
  resizeAgent: {
    params: z.object({ agentId: AgentIdSchema, ...TerminalSize.shape, byLayout: z.boolean().optional() }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
    kind: 'changes',
    doors: EVERY_DOOR,
    // Typing into a terminal, or reading one, is the person's.
    agents: 'refused',
  },
  /**
   * Connection-scoped: the agent's terminal stream is pushed to this connection. Answers with a
   * snapshot of the host's mirror of the terminal (its bounded scrollback and screen, serialized
   * for a terminal of `cols` x `rows`) and `at`, where in the stream it ends: the chunks pushed
   * afterwards start there. A size given is reported as resizeAgent's `byLayout` is: the PTY
   * takes it only if no client owns it yet.
   */
  attachAgentTerminal: {
    params: z.object({ agentId: AgentIdSchema, ...TerminalSize.partial().shape }).strict(),
    result: z.object({ agentId: AgentIdSchema, snapshot: z.string(), at: z.number().int().nonnegative(), ...TerminalSize.shape }),
    kind: 'connection',
    doors: EVERY_DOOR,
    // Typing into a terminal, or reading one, is the person's.
    agents: 'refused',
  },
  /**
   * What the host's mirror of the agent's terminal holds, as text: scrollback, then the screen, a
   * row the terminal wrapped joined to the one it continues. `styled`: each run of one look comes
   * after the SGR that gives it (starting with a reset), so looks compare too.
   */
  readAgentScreen: {
    params: z.object({ agentId: AgentIdSchema, styled: z.boolean().optional() }).strict(),
    result: z.object({ agentId: AgentIdSchema, text: z.string(), ...TerminalSize.shape }),
    kind: 'reads',
    doors: EVERY_DOOR,
    // Typing into a terminal, or reading one, is the person's.
    agents: 'refused',
  },
  detachAgentTerminal: {
    params: z.object({ agentId: AgentIdSchema }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
    kind: 'connection',
    doors: EVERY_DOOR,
    // Typing into a terminal, or reading one, is the person's.
    agents: 'refused',
  },
  /** Flow control: the client has written `bytes` more bytes of this agent's stream to its screen. */
  ackAgentOutput: {
    params: z.object({ agentId: AgentIdSchema, bytes: z.number().int().positive() }).strict(),
    result: z.object({ agentId: AgentIdSchema }),
    kind: 'connection',
    doors: EVERY_DOOR,
    // Typing into a terminal, or reading one, is the person's.
    agents: 'refused',
  },
  /**
   * From `drover hook CLI`, run by an agent CLI's own hooks inside an agent terminal: what the CLI
   * said of itself, already read out of its payload.
   */
  reportAgentHook: {
    params: z
      .object({
        agentId: AgentIdSchema,
        event: AgentHookEventSchema,
        /** The CLI's conversation id, once a prompt was submitted in it (so it can be resumed). */
        externalSessionId: z.string().max(200).optional(),
        /** stop-failed: the CLI's error kind (e.g. `rate_limit`, `server_error`). */
        error: z.string().max(100).optional(),
        /** stop-failed: what the CLI printed (a limit line names its reset time). */
        message: z.string().max(4000).optional(),
        /** quota: the plan quota the CLI reported. */
        quota: AgentQuotaSchema.optional(),
        /** prompt-submitted: what the person asked, where the CLI's hook says (kept with the turn). */
        prompt: z.string().max(MAX_TURN_PROMPT_CHARS).optional(),
      })
      .strict(),
    result: AgentSessionSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'own',
  },
} as const satisfies MethodTable;

export type SessionMethodName = keyof typeof SESSION_METHODS;
