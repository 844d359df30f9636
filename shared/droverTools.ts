/**
 * The tools of Drover's MCP server, and the few that only read: an agent CLI may run those without
 * asking the person. Every other tool acts — runs a shell command as the person, outside the CLI's
 * own sandbox (run_in_background), cancels or retries a task, or sends a message that Drover types
 * into another agent's prompt — so it goes through the CLI's own approval dialog, unless the
 * project's `preApproveDroverTools` setting says otherwise.
 */
export const DROVER_TOOL_NAMES = ['run_in_background', 'list_tasks', 'get_task', 'cancel_task', 'retry_task', 'read_inbox', 'send_message', 'ask_agent', 'reply'] as const;
export type DroverToolName = (typeof DROVER_TOOL_NAMES)[number];

/** Read the project's tasks and the agent's own inbox (read_inbox marks what it showed as read). */
export const READ_ONLY_DROVER_TOOLS: readonly DroverToolName[] = ['list_tasks', 'get_task', 'read_inbox'];
