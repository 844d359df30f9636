import type { InboxMessage } from '../../shared/entities/inbox';
import { agentCredentials } from './agentCredentials';
import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import { resolveProject, type CliContext } from './taskCommands';
import { quoted, withLinesOnly } from './terminalText';
import { UsageError } from './usage';
import { agentIdOf } from './worktreeCommands';

const KIND_WORDS: Readonly<Record<InboxMessage['kind'], string>> = {
  'task-result': 'Task result',
  question: 'Question',
  reply: 'Reply',
  note: 'Note',
};

function heading(message: InboxMessage, senders: ReadonlyMap<string, string>): string {
  const from = message.kind === 'task-result' ? 'Drover' : message.fromAgentId ? quoted(senders.get(message.fromAgentId) ?? message.fromAgentId) : 'a person';
  const question = message.kind === 'question' ? ` (question ${message.id})` : '';
  return `${KIND_WORDS[message.kind]} from ${from}${question}, ${new Date(message.createdAt).toISOString()}`;
}

/**
 * `drover inbox`: the agent's new messages in full, oldest first, then marked read. What the MCP
 * tool read_inbox gives agent CLIs, for an agent that is a plain shell (or a person in its terminal).
 */
export async function inboxCommand(args: string[], context: CliContext): Promise<number> {
  const { values } = parseCommandArgs('drover inbox', args, {
    project: { type: 'string' },
    agent: { type: 'string' },
    all: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  });
  const given = values.agent ?? context.env.DROVER_AGENT_ID;
  if (!given) throw new UsageError('drover inbox needs an agent: run it in an agent terminal, or name one with --agent NAME.');
  const client = await connectToDrover(context.socketPath, {}, { agent: agentCredentials(context.env) });
  const { rpc } = client;
  try {
    const project = await resolveProject(rpc, values.project, context);
    const agentId = await agentIdOf(rpc, project, given);
    const { agents } = await rpc.call('getWorkState', { projectId: project.id });
    const names = new Map(agents.map((agent) => [agent.id, agent.name]));
    const messages: InboxMessage[] = [];
    for (let after: string | undefined; ; ) {
      const page = await rpc.call('listInbox', { agentId, unreadOnly: !values.all, ...(after ? { after } : {}) });
      messages.push(...page.messages);
      if (page.next === null) break;
      after = page.next;
    }
    if (values.json) context.out(`${JSON.stringify(messages, null, 2)}\n`);
    else if (messages.length === 0) context.out(`No new messages for ${quoted(names.get(agentId) ?? given)} (drover inbox --all shows the read ones).\n`);
    // A body is an agent's, a forge's or a command's text: its lines stay, nothing in it acts on the terminal.
    else context.out(messages.map((message) => `${heading(message, names)}\n${withLinesOnly(message.body)}\n`).join('\n'));
    const unread = messages.filter((message) => message.state !== 'read').map((message) => message.id);
    if (unread.length > 0) await rpc.call('markInboxRead', { agentId, messageIds: unread });
    return 0;
  } finally {
    client.close();
  }
}
