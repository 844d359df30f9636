import { describe, expect, it } from 'vitest';
import type { Agent, AgentProfile } from '../../../shared/entities';
import { BUILT_IN_PROFILES } from './builtInProfiles';
import { planLaunch } from './agentLaunch';

const agent: Agent = { id: 'a-abc123', projectId: 'p-abc123', name: 'Backend', role: '', profileId: 'claude', wakesHeld: false, createdAt: 0, seq: 1 };
const env = { PATH: '/bin:/usr/bin', HOME: '/home/me', SHELL: '/bin/sh' };
const profile = (id: string, command = '/bin/sh'): AgentProfile => ({
  ...(BUILT_IN_PROFILES.find((p) => p.id === id) as AgentProfile),
  command,
  builtIn: true,
  unavailableReason: null,
});
const plan = (id: string, resumeId: string | null = null) =>
  planLaunch({ profile: profile(id), agent, socketPath: '/data/drover.sock', shimDir: '/data/bin', agentDir: '/data/agent', resumeId, baseEnv: env });

describe('planLaunch', () => {
  it('gives every agent terminal the Drover env and the drover shim first on PATH', () => {
    const { env: launched } = plan('shell');
    expect(launched).toMatchObject({ DROVER_SOCKET: '/data/drover.sock', DROVER_PROJECT_ID: 'p-abc123', DROVER_AGENT_ID: 'a-abc123', HOME: '/home/me' });
    expect(launched.PATH).toBe('/data/bin:/bin:/usr/bin');
  });

  it('points Claude Code at per-session hooks and the MCP server, and resumes its conversation', () => {
    const launch = plan('claude', 'conv-1');
    expect(launch.args).toEqual(['--settings', '/data/agent/claude-settings.json', '--mcp-config', '/data/agent/mcp.json', '--resume', 'conv-1']);
    const settings = JSON.parse(launch.files.find((f) => f.path.endsWith('claude-settings.json'))?.content ?? '{}');
    expect(settings.hooks.UserPromptSubmit[0].hooks[0].command).toBe("'/data/bin/drover' hook prompt-submitted");
    expect(Object.keys(settings.hooks).sort()).toEqual(['Notification', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    expect(JSON.parse(launch.files.find((f) => f.path.endsWith('mcp.json'))?.content ?? '{}')).toEqual({
      mcpServers: { drover: { command: '/data/bin/drover', args: ['mcp'] } },
    });
  });

  it('gives Codex its notify program and MCP server through -c overrides, and resumes', () => {
    expect(plan('codex', 'thread-9').args).toEqual([
      '-c',
      'notify=["/data/bin/drover","hook","codex-notify"]',
      '-c',
      'mcp_servers.drover.command="/data/bin/drover"',
      '-c',
      'mcp_servers.drover.args=["mcp"]',
      'resume',
      'thread-9',
    ]);
  });

  it('refuses a command that is not installed', () => {
    expect(() =>
      planLaunch({ profile: { ...profile('aider'), command: 'aider-not-here', unavailableReason: 'aider-not-here is not installed' }, agent, socketPath: '', shimDir: '', agentDir: '', resumeId: null, baseEnv: env }),
    ).toThrow(/not installed/);
  });
});
