import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../shared/entities/agents';
import type { AgentProfile } from '../../../shared/entities/profiles';
import { planLaunch, type LaunchPlan } from './agentLaunch';
import { BUILT_IN_PROFILES } from './builtInProfiles';

const agent: Agent = { id: 'a-abc123', projectId: 'p-abc123', name: 'Backend', role: '', profileId: 'copilot', wakesHeld: false, createdAt: 0, seq: 1 };
const copilot: AgentProfile = { ...(BUILT_IN_PROFILES.find((p) => p.id === 'copilot') as AgentProfile), command: '/bin/sh', builtIn: true, unavailableReason: null };
const plan = (resumeId: string | null = null, preApproveDroverTools = false) =>
  planLaunch({
    profile: copilot,
    agent,
    socketPath: '/data/drover.sock',
    shimDir: '/data/bin',
    agentDir: '/data/agent',
    resumeId,
    proof: 'ab12',
    preApproveDroverTools,
    accountPaused: false,
    baseEnv: { PATH: '/bin', HOME: '/home/me' },
  });
const json = (launch: LaunchPlan, name: string) => {
  const file = launch.files.find((f) => f.path.endsWith(name));
  if (!file || !('content' in file)) throw new Error(`no ${name}`);
  return JSON.parse(file.content) as Record<string, unknown>;
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('planLaunch for GitHub Copilot CLI', () => {
  it("adds Drover's MCP server and hooks for this session only, and starts a conversation by an id Drover chose", () => {
    const fresh = plan();
    expect(fresh.args.slice(0, 3)).toEqual(['--no-auto-update', '--additional-mcp-config=@/data/agent/copilot-mcp-config.json', '--plugin-dir=/data/agent/copilot-plugin']);
    expect(fresh.conversationId).toMatch(UUID);
    expect(fresh.args.at(-1)).toBe(`--session-id=${fresh.conversationId}`);
    expect(fresh.files.map((file) => file.path).sort()).toEqual([
      '/data/agent/copilot-mcp-config.json',
      '/data/agent/copilot-plugin/.plugin/plugin.json',
      '/data/agent/copilot-plugin/hooks/hooks.json',
    ]);
    expect(json(fresh, 'plugin.json')).toMatchObject({ name: 'drover', hooks: 'hooks/hooks.json' });
    const hooks = json(fresh, 'hooks.json') as { version: number; hooks: Record<string, { bash: string }[]> };
    expect(hooks.version).toBe(1);
    expect(Object.fromEntries(Object.entries(hooks.hooks).map(([event, [hook]]) => [event, hook?.bash]))).toEqual({
      userPromptSubmitted: "'/data/bin/drover' hook copilot userPromptSubmitted",
      agentStop: "'/data/bin/drover' hook copilot agentStop",
      errorOccurred: "'/data/bin/drover' hook copilot errorOccurred",
      notification: "'/data/bin/drover' hook copilot notification",
    });
  });

  it("names the variables Drover's MCP server needs as references to the agent's own, never their values", () => {
    const launch = plan();
    expect(json(launch, 'copilot-mcp-config.json')).toEqual({
      mcpServers: {
        drover: {
          type: 'local',
          command: '/data/bin/drover',
          args: ['mcp'],
          env: { DROVER_SOCKET: '${DROVER_SOCKET}', DROVER_PROJECT_ID: '${DROVER_PROJECT_ID}', DROVER_AGENT_ID: '${DROVER_AGENT_ID}', DROVER_AGENT_PROOF: '${DROVER_AGENT_PROOF}' },
          tools: ['*'],
        },
      },
    });
    expect(launch.env.DROVER_AGENT_PROOF).toBe('ab12');
    expect([...launch.args, ...launch.files.map((file) => ('content' in file ? file.content : file.linkTo))].join('\n')).not.toContain('ab12');
  });

  it("lets only Drover's read-only tools run without asking, or every one where the project pre-approves them", () => {
    const allowed = (launch: LaunchPlan) => launch.args.filter((arg) => arg.startsWith('--allow-tool='));
    expect(allowed(plan())).toEqual(['--allow-tool=drover(list_tasks)', '--allow-tool=drover(get_task)', '--allow-tool=drover(read_inbox)']);
    expect(allowed(plan(null, true))).toEqual(['--allow-tool=drover']);
  });

  it('resumes the conversation it is given', () => {
    const resumed = plan('8f3c0d2e-1b4a-4c5d-9e6f-7a8b9c0d1e2f');
    expect(resumed.args.at(-1)).toBe('--resume=8f3c0d2e-1b4a-4c5d-9e6f-7a8b9c0d1e2f');
    expect(resumed.args.filter((arg) => arg.startsWith('--session-id'))).toEqual([]);
    expect(resumed.conversationId).toBeNull();
  });
});
