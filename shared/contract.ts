import type { z } from 'zod';
import { ACCOUNT_METHODS } from './contract/accounts';
import { ATTENTION_METHODS } from './contract/attention';
import { AGENT_METHODS } from './contract/agents';
import { AUTOMATION_METHODS } from './contract/automations';
import { APP_SETTINGS_METHODS } from './contract/appSettings';
import { CALLER_METHODS } from './contract/callers';
import { COMMAND_LINE_TOOL_METHODS } from './contract/commandLineTool';
import { COMMENT_METHODS } from './contract/comments';
import { EDITOR_METHODS } from './contract/editor';
import { FORGE_METHODS } from './contract/forge';
import { HOST_METHODS, type HostMethodName } from './contract/host';
import { INBOX_METHODS } from './contract/inbox';
import { MACHINE_METHODS } from './contract/machines';
import { OVERLAP_METHODS } from './contract/overlaps';
import { MERGE_QUEUE_METHODS } from './contract/mergeQueue';
import { PROFILE_METHODS } from './contract/profiles';
import { PROJECT_METHODS } from './contract/projects';
import { SESSION_METHODS } from './contract/sessions';
import { TASK_METHODS } from './contract/tasks';
import { TURN_METHODS } from './contract/turns';
import { WAKE_METHODS } from './contract/wake';
import type { MethodEntry, MethodTable } from './contract/methodFacts';
import { WORKTREE_METHODS } from './contract/worktrees';

/**
 * The request/response API every door exposes: one definition for both sides, so handlers and
 * callers cannot drift. Params are validated at every boundary with these schemas. Each domain
 * keeps its own table in `contract/`; its handlers in `electron/core/` are typed by that table's
 * names, so a method is one entry there and one handler. The entry also says what the method is
 * (see contract/methodFacts.ts): the client's drop policy, the doors and the rules for agents all
 * read it there.
 */
export const METHODS = {
  ...HOST_METHODS,
  ...CALLER_METHODS,
  ...PROJECT_METHODS,
  ...TASK_METHODS,
  ...PROFILE_METHODS,
  ...AGENT_METHODS,
  ...SESSION_METHODS,
  ...INBOX_METHODS,
  ...WAKE_METHODS,
  ...APP_SETTINGS_METHODS,
  ...ACCOUNT_METHODS,
  ...COMMAND_LINE_TOOL_METHODS,
  ...WORKTREE_METHODS,
  ...OVERLAP_METHODS,
  ...FORGE_METHODS,
  ...TURN_METHODS,
  ...COMMENT_METHODS,
  ...MACHINE_METHODS,
  ...ATTENTION_METHODS,
  ...EDITOR_METHODS,
  ...AUTOMATION_METHODS,
  ...MERGE_QUEUE_METHODS,
} as const satisfies MethodTable;

export type MethodName = keyof typeof METHODS;
export type MethodParams<M extends MethodName> = z.input<(typeof METHODS)[M]['params']>;
export type MethodResult<M extends MethodName> = z.infer<(typeof METHODS)[M]['result']>;

/** The methods the core answers; the host answers the rest itself (see contract/host.ts). */
export type CoreMethodName = Exclude<MethodName, HostMethodName>;

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(METHODS, name);
}

/** A method's entry with its facts as their plain types (each table's own are narrower literals). */
export function entryOf(method: MethodName): MethodEntry {
  return METHODS[method];
}
