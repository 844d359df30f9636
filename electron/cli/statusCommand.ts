import type { Project } from '../../shared/entities/projects';
import { ACTIVE_TASK_STATES, type Task } from '../../shared/entities/tasks';
import { DroverRequestError } from '../../shared/protocol';
import type { RpcClient } from '../../shared/rpcClient';
import { agentCredentials } from './agentCredentials';
import { agentStates } from './agentStates';
import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import type { CliContext } from './taskCommands';
import { quoted } from './terminalText';

/** A project's agents with their states and its queued and running tasks, or why its work cannot be read. */
type ProjectWork = { agents: { id: string; name: string; state: string }[]; tasks: Task[] } | { error: string };

async function workOf(rpc: RpcClient, project: Project): Promise<ProjectWork> {
  try {
    const { agents, sessions } = await rpc.call('getWorkState', { projectId: project.id });
    const stateOf = agentStates(sessions);
    const tasks: Task[] = [];
    for (let after: string | undefined; ; ) {
      const page = await rpc.call('listTasks', { projectId: project.id, states: [...ACTIVE_TASK_STATES], ...(after ? { after } : {}) });
      tasks.push(...page.tasks);
      if (page.next === null) break;
      after = page.next;
    }
    return { agents: agents.map((agent) => ({ id: agent.id, name: agent.name, state: stateOf(agent.id) })), tasks };
  } catch (error) {
    // A project whose database is missing or damaged is named with the reason; the others still show.
    if (error instanceof DroverRequestError && error.code !== 'internal') return { error: error.message };
    throw error;
  }
}

function workLines(work: ProjectWork): string[] {
  if ('error' in work) return [`    its work cannot be read: ${quoted(work.error)}`];
  return [
    ...work.agents.map((agent) => `    agent ${quoted(agent.name)} (${agent.state})`),
    ...work.tasks.map((task) => `    task ${task.id} (${task.state}) ${task.label ? quoted(task.label) : quoted(task.command)}`),
  ];
}

/** `drover status`: the Drover reached, its projects, and in each its agents and the tasks not yet finished. */
export async function statusCommand(args: string[], context: CliContext): Promise<number> {
  const { values } = parseCommandArgs('drover status', args, { json: { type: 'boolean', default: false } });
  const client = await connectToDrover(context.socketPath, {}, { agent: agentCredentials(context.env) });
  try {
    const info = await client.rpc.call('getStatus', {});
    const projects = [];
    for (const project of info.projects) projects.push({ project, work: await workOf(client.rpc, project) });
    if (values.json) {
      context.out(`${JSON.stringify({ ...info, projects: projects.map(({ project, work }) => ({ ...project, ...work })) }, null, 2)}\n`);
      return 0;
    }
    const lines = [
      `Drover ${quoted(info.version)}`,
      `data dir: ${quoted(info.dataDir)}`,
      `socket:   ${quoted(info.socketPath)}`,
      `projects: ${info.projects.length}`,
      ...projects.flatMap(({ project, work }) => [`  ${project.id}  ${quoted(project.name)}  ${quoted(project.path)}`, ...workLines(work)]),
    ];
    context.out(`${lines.join('\n')}\n`);
    return 0;
  } finally {
    client.close();
  }
}
