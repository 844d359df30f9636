import { z } from 'zod';
import type { InboxMessage } from '../../../shared/entities/inbox';
import { ACTIVE_TASK_STATES, FINISHED_TASK_STATES, type Task } from '../../../shared/entities/tasks';
import type { DroverToolName } from '../../../shared/droverTools';
import type { DroverCaller } from '../socketClient';

export interface AgentIdentity {
  projectId: string;
  agentId: string | null;
}

export interface McpTool<S extends z.ZodType = z.ZodType> {
  name: DroverToolName;
  description: string;
  input: S;
  run(args: z.output<S>, rpc: DroverCaller, me: AgentIdentity): Promise<string>;
}

function tool<S extends z.ZodType>(definition: McpTool<S>): McpTool {
  return definition as unknown as McpTool;
}

const TaskId = z.string().describe('A task id such as t-0mx25xwbnaoxow5');

function taskSummary(task: Task): string {
  const name = task.label ? `${task.label}: ${task.command}` : task.command;
  const exit = task.exitCode !== null ? `, exit ${task.exitCode}` : task.signal ? `, ${task.signal}` : '';
  return `${task.id} [${task.state}${exit}] attempt ${task.attempt} — ${name}`;
}

function messageText(message: InboxMessage): string {
  const meta = [message.kind, message.id, message.fromAgentId ? `from ${message.fromAgentId}` : null, message.replyTo ? `answers ${message.replyTo}` : null]
    .filter(Boolean)
    .join(', ');
  return `--- ${meta} (${new Date(message.createdAt).toISOString()})\n${message.body}`;
}

/** Terminal output as plain lines: the PTY's CRLF line ends become LF. */
function asLines(output: string): string {
  return output.replace(/\r\n/g, '\n');
}

function requireAgent(me: AgentIdentity): string {
  if (!me.agentId) throw new Error('This needs an agent identity: run the MCP server from a Drover agent terminal (DROVER_AGENT_ID is not set).');
  return me.agentId;
}

/** The tools `drover mcp` offers agent CLIs; each input is a zod schema published as JSON schema. */
export const MCP_TOOLS: McpTool[] = [
  tool({
    name: 'run_in_background',
    description:
      'Run a long shell command (tests, builds, deploys) as a Drover background task instead of waiting for it. ' +
      'Returns at once with the task id. When the task ends, Drover posts its result (exit code, duration, output tail) to your inbox ' +
      'and types a note into your prompt once you are idle, so you can keep working or stop.',
    input: z.object({
      command: z.string().min(1).describe('The shell command, run by the user\'s shell in the project'),
      label: z.string().max(200).optional().describe('A short name shown in the work-state panel'),
      cwd: z.string().optional().describe('Working folder inside the project (default: the project root)'),
    }),
    run: async (args, rpc, me) => {
      const task = await rpc.call('createTask', {
        projectId: me.projectId,
        command: args.command,
        ...(args.cwd ? { cwd: args.cwd } : {}),
        ...(args.label ? { label: args.label } : {}),
        ...(me.agentId ? { ownerAgentId: me.agentId } : {}),
      });
      return `Started background task ${task.id} (${task.state}). Its result will arrive in your inbox when it ends; you do not need to poll.`;
    },
  }),
  tool({
    name: 'list_tasks',
    description: 'List background tasks of this project, newest first.',
    input: z.object({
      filter: z.enum(['active', 'finished', 'all']).default('all'),
      mine_only: z.boolean().default(false).describe('Only tasks you started'),
      limit: z.number().int().min(1).max(1000).default(100).describe('At most this many tasks'),
    }),
    run: async (args, rpc, me) => {
      const states = args.filter === 'all' ? undefined : args.filter === 'finished' ? FINISHED_TASK_STATES : ACTIVE_TASK_STATES;
      const shown: Task[] = [];
      let after: string | null = null;
      do {
        const page: { tasks: Task[]; next: string | null } = await rpc.call('listTasks', {
          projectId: me.projectId,
          ...(states ? { states: [...states] } : {}),
          ...(after ? { after } : {}),
          limit: args.limit,
        });
        shown.push(...page.tasks.filter((task) => !args.mine_only || task.ownerAgentId === me.agentId));
        after = page.next;
      } while (after !== null && shown.length < args.limit);
      const more = after !== null || shown.length > args.limit ? '\n(older tasks not shown; raise limit to see them)' : '';
      return shown.length ? `${shown.slice(0, args.limit).map(taskSummary).join('\n')}${more}` : 'No tasks.';
    },
  }),
  tool({
    name: 'get_task',
    description: 'Show one background task with the tail of its output.',
    input: z.object({ task_id: TaskId, tail_bytes: z.number().int().min(0).max(1_000_000).default(4000) }),
    run: async (args, rpc) => {
      const task = await rpc.call('getTask', { taskId: args.task_id });
      const output = args.tail_bytes > 0 ? await rpc.call('readTaskOutput', { taskId: task.id, tailBytes: args.tail_bytes }) : null;
      return `${taskSummary(task)}\ncwd: ${task.cwd}${task.reason ? `\nreason: ${task.reason}` : ''}\n--- output tail ---\n${asLines(output?.data ?? '')}`;
    },
  }),
  tool({
    name: 'cancel_task',
    description: 'Cancel a queued or running background task (SIGTERM to its process group, SIGKILL after a grace period).',
    input: z.object({ task_id: TaskId }),
    run: async (args, rpc) => taskSummary(await rpc.call('cancelTask', { taskId: args.task_id })),
  }),
  tool({
    name: 'retry_task',
    description: 'Run a finished background task again as a new attempt; its result comes to the inbox of the task\'s owner.',
    input: z.object({ task_id: TaskId }),
    run: async (args, rpc) => `Retrying as ${taskSummary(await rpc.call('retryTask', { taskId: args.task_id }))}`,
  }),
  tool({
    name: 'read_inbox',
    description: 'Read your inbox: task results, questions from other agents, replies and notes. Marks what it shows as read.',
    input: z.object({ unread_only: z.boolean().default(true), mark_read: z.boolean().default(true) }),
    run: async (args, rpc, me) => {
      const agentId = requireAgent(me);
      const { messages, next } = await rpc.call('listInbox', { agentId, unreadOnly: args.unread_only, limit: 50 });
      if (args.mark_read && messages.length > 0) await rpc.call('markInboxRead', { agentId, messageIds: messages.map((m) => m.id) });
      const more = next !== null ? `\n\n(more messages wait; call read_inbox again)` : '';
      return messages.length ? `${messages.map(messageText).join('\n\n')}${more}` : 'Your inbox has no unread messages.';
    },
  }),
  tool({
    name: 'send_message',
    description: 'Send a note to another agent of this project (by name); it reaches them when they are idle.',
    input: z.object({ to: z.string().min(1).describe('The other agent\'s name, e.g. "Backend"'), body: z.string().min(1) }),
    run: async (args, rpc, me) => {
      const message = await rpc.call('sendMessage', {
        projectId: me.projectId,
        to: args.to,
        kind: 'note',
        body: args.body,
        ...(me.agentId ? { fromAgentId: me.agentId } : {}),
      });
      return `Sent ${message.id} to ${args.to}.`;
    },
  }),
  tool({
    name: 'ask_agent',
    description:
      'Ask another agent of this project a question and wait for its answer. The question reaches the other agent through its inbox ' +
      'when it is idle; this call returns when it replies, or fails after the timeout.',
    input: z.object({
      to: z.string().min(1).describe('The other agent\'s name'),
      question: z.string().min(1),
      timeout_seconds: z.number().int().min(1).max(3600).default(600),
    }),
    run: async (args, rpc, me) => {
      const fromAgentId = requireAgent(me);
      const question = await rpc.call('sendMessage', { projectId: me.projectId, to: args.to, kind: 'question', body: args.question, fromAgentId });
      const reply = await rpc.call('awaitReply', { questionId: question.id, timeoutMs: args.timeout_seconds * 1000 });
      if (!reply) throw new Error(`${args.to} did not answer question ${question.id} within ${args.timeout_seconds}s; its reply will still reach your inbox.`);
      return reply.body;
    },
  }),
  tool({
    name: 'reply',
    description: 'Answer a question another agent asked you (the question id is in the message Drover typed, and in read_inbox).',
    input: z.object({ question_id: z.string().min(1), body: z.string().min(1) }),
    run: async (args, rpc, me) => {
      const reply = await rpc.call('replyToMessage', {
        questionId: args.question_id,
        body: args.body,
        ...(me.agentId ? { fromAgentId: me.agentId } : {}),
      });
      return `Replied (${reply.id}).`;
    },
  }),
];
