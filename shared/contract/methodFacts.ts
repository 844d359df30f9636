import type { z } from 'zod';

/**
 * What a call is, for a client whose connection drops before the answer came (see RpcClient):
 * - `reads`: it changes nothing, so it is simply sent again on the next connection;
 * - `changes`: it changes work state, so it carries a key and is sent again with the same key; the
 *   host applies a keyed call once and answers a repeat with the first answer;
 * - `connection`: it acts on the connection itself (a stream attached, an agent identified), which
 *   went away with it: it fails, and the client sets that up again on the next connection.
 */
export type MethodKind = 'reads' | 'changes' | 'connection';

/**
 * The ways in to a host a method may be called through:
 * - `socket`: the host's local socket (Drover's own commands, agents' tools, the desktop window);
 * - `web`: a browser page through the host's web door;
 * - `machinePage`: a page of another machine, whose line to this host lets only these through.
 */
export type Door = 'socket' | 'web' | 'machinePage';
export const EVERY_DOOR = ['socket', 'web', 'machinePage'] as const satisfies readonly Door[];

/**
 * What a connection that identified as an agent may do with a method (the person may do anything):
 * - `allowed`: call it as it is (it acts only on the caller, or says nothing of anyone else);
 * - `refused`: nothing, it is for people only;
 * - `own`: call it for what is its own (its project, its inbox, its questions): its rule in
 *   electron/core/callers/agentAccess.ts checks the params and may trim the result.
 */
export type AgentAccess = 'allowed' | 'refused' | 'own';

/**
 * A method of the contract: its params and result, and the facts every door acts on. Each table
 * in contract/ satisfies this, so a method without a kind, its doors or its rule for agents does
 * not compile.
 */
export interface MethodEntry {
  params: z.ZodType;
  result: z.ZodType;
  kind: MethodKind;
  doors: readonly [Door, ...Door[]];
  agents: AgentAccess;
}

export type MethodTable = Record<string, MethodEntry>;

/** The host answers its own methods itself, with no rule of the core's to check an agent's params. */
export type HostMethodTable = Record<string, MethodEntry & { agents: 'allowed' | 'refused' }>;
