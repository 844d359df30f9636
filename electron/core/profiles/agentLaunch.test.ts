import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../shared/entities/agents';
import type { AgentProfile } from '../../../shared/entities/profiles';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { planLaunch, type LaunchPlan } from './agentLaunch';
import { BUILT_IN_PROFILES } from './builtInProfiles';
import { codexHookHash } from './codexLaunch';

const agent: Agent = { id: 'a-abc123', projectId: 'p-abc123', name: 'Backend', role: '', profileId: 'claude', wakesHeld: false, createdAt: 0, seq: 1 };
const env = { PATH: '/bin:/usr/bin', HOME: '/home/me', SHELL: '/bin/sh' };
const profile = (id: string, command = '/bin/sh'): AgentProfile => ({
  ...(BUILT_IN_PROFILES.find((p) => p.id === id) as AgentProfile),
  command,
  builtIn: true,
  unavailableReason: null,
});
const plan = (id: string, resumeId: string | null = null, preApproveDroverTools = false, accountPaused = false) =>
  planLaunch({ profile: profile(id), agent, socketPath: '/data/drover.sock', shimDir: '/data/bin', agentDir: '/data/agent', resumeId, proof: 'ab12', preApproveDroverTools, accountPaused, baseEnv: env });

const contentOf = (launch: LaunchPlan, name: string): string => {
  const file = launch.files.find((f) => f.path.endsWith(name));
  if (!file || !('content' in file)) throw new Error(`no ${name}`);
  return file.content;
};

describe('planLaunch', () => {
  it('gives every agent terminal the Drover env and the drover shim first on PATH', () => {
    const { env: launched } = plan('shell');
    expect(launched).toMatchObject({ DROVER_SOCKET: '/data/drover.sock', DROVER_PROJECT_ID: 'p-abc123', DROVER_AGENT_ID: 'a-abc123', DROVER_AGENT_PROOF: 'ab12', HOME: '/home/me' });
    expect(launched.PATH).toBe('/data/bin:/bin:/usr/bin');
  });

  it("puts the session's proof in the env only: never in argv or a config file", () => {
    for (const id of ['shell', 'claude', 'codex', 'gemini', 'opencode']) {
      const launch = plan(id);
      expect(launch.env.DROVER_AGENT_PROOF, id).toBe('ab12');
      expect(launch.args.join(' '), id).not.toContain('ab12');
      expect(launch.files.map((file) => ('content' in file ? file.content : file.linkTo)).join('\n'), id).not.toContain('ab12');
    }
  });

  it('points Claude Code at per-session hooks, status line and MCP server, with a conversation id it chose or the one to resume', () => {
    const fresh = plan('claude');
    expect(fresh.args.slice(0, 4)).toEqual(['--settings', '/data/agent/claude-settings.json', '--mcp-config', '/data/agent/mcp.json']);
    expect(fresh.args[4]).toBe('--session-id');
    expect(fresh.args[5]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(plan('claude', 'conv-1').args.slice(4)).toEqual(['--resume', 'conv-1']);
    const settings = JSON.parse(contentOf(fresh, 'claude-settings.json'));
    expect(Object.keys(settings.hooks).sort()).toEqual(['Notification', 'PermissionRequest', 'SessionStart', 'Stop', 'StopFailure', 'UserPromptSubmit']);
    expect(settings.hooks.Stop[0].hooks[0].command).toBe("'/data/bin/drover' hook claude");
    // The 60 s idle notification and the login notice are not the person being asked something.
    expect(settings.hooks.Notification[0].matcher).toBe('permission_prompt|elicitation_dialog');
    expect(settings.statusLine).toEqual({ type: 'command', command: "'/data/bin/drover' hook claude-status-line" });
    // Only the read-only tools run without asking, unless the project pre-approves them all.
    expect(settings.permissions).toEqual({ allow: ['mcp__drover__list_tasks', 'mcp__drover__get_task', 'mcp__drover__read_inbox'] });
    expect(JSON.parse(contentOf(plan('claude', null, true), 'claude-settings.json')).permissions).toEqual({ allow: ['mcp__drover__*'] });
    expect(JSON.parse(contentOf(fresh, 'mcp.json'))).toEqual({ mcpServers: { drover: { type: 'stdio', command: '/data/bin/drover', args: ['mcp'] } } });
    // Claude goes on by itself at a limit's reset unless its account was paused when it started.
    expect(settings).not.toHaveProperty('autoContinueAtUsageLimit');
    expect(JSON.parse(contentOf(plan('claude', null, false, true), 'claude-settings.json')).autoContinueAtUsageLimit).toBe(false);
  });

  it('runs Codex without its daemon, gives its MCP server the Drover env, and trusts Drover’s hooks by the hash Codex computes', () => {
    const args = plan('codex', 'thread-9').args;
    expect(args.slice(0, 15)).toEqual([
      '--no-daemon',
      '-c',
      'mcp_servers.drover.command="/data/bin/drover"',
      '-c',
      'mcp_servers.drover.args=["mcp"]',
      '-c',
      'mcp_servers.drover.env_vars=["DROVER_SOCKET","DROVER_PROJECT_ID","DROVER_AGENT_ID","DROVER_AGENT_PROOF"]',
      '-c',
      'mcp_servers.drover.default_tools_approval_mode="prompt"',
      '-c',
      'mcp_servers.drover.tools.list_tasks.approval_mode="approve"',
      '-c',
      'mcp_servers.drover.tools.get_task.approval_mode="approve"',
      '-c',
      'mcp_servers.drover.tools.read_inbox.approval_mode="approve"',
    ]);
    const preApproved = plan('codex', null, true).args;
    expect(preApproved).toContain('mcp_servers.drover.default_tools_approval_mode="approve"');
    expect(preApproved.filter((arg) => arg.includes('approval_mode'))).toHaveLength(1);
    expect(args).toContain(`hooks.Stop=[{hooks=[{type="command",command="'/data/bin/drover' hook codex",timeout=60}]}]`);
    expect(args.find((arg) => arg.startsWith('hooks.state='))).toContain(`"/<session-flags>/config.toml:stop:0:0"={trusted_hash="${codexHookHash('stop', "'/data/bin/drover' hook codex", 60)}"}`);
    expect(args.slice(-2)).toEqual(['resume', 'thread-9']);
  });

  it('computes the hook trust hash Codex 0.171.0 wrote for a hook it trusted', () => {
    expect(codexHookHash('stop', '/tmp/research/codex/hooklog.sh Stop', 600)).toBe('sha256:bf3567fdfab8a46cad4ab608d4adff6a8a18ffdd4c2caaca1f13c98a66a4ed12');
  });

  it('gives Gemini CLI its own home: the person’s settings plus Drover’s MCP server and hooks, the rest linked back', () => {
    const home = makeTempDir();
    try {
      fs.mkdirSync(path.join(home, '.gemini', 'tmp'), { recursive: true });
      fs.writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify({ ui: { theme: 'Dracula' }, hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'mine' }] }] } }));
      const gemini = (preApproveDroverTools: boolean) =>
        planLaunch({ profile: profile('gemini'), agent, socketPath: '/s', shimDir: '/data/bin', agentDir: '/data/agent', resumeId: null, proof: 'ab12', preApproveDroverTools, accountPaused: false, baseEnv: { ...env, HOME: home } });
      const launch = gemini(false);
      expect(launch.env).toMatchObject({ GEMINI_CLI_HOME: '/data/agent/gemini-home', GEMINI_CLI_TRUSTED_FOLDERS_PATH: path.join(home, '.gemini', 'trustedFolders.json') });
      const settings = JSON.parse(contentOf(launch, 'settings.json'));
      expect(settings.ui).toEqual({ theme: 'Dracula' });
      // Not trusted: a policy file lets the read-only tools through, beside the person's own policies.
      expect(settings.mcpServers.drover).toEqual({ command: '/data/bin/drover', args: ['mcp'] });
      expect(settings.policyPaths).toEqual(['/data/agent/gemini-home/.gemini/policies', '/data/agent/gemini-policies/drover.toml']);
      expect(contentOf(launch, 'drover.toml')).toContain('toolName = ["mcp_drover_list_tasks","mcp_drover_get_task","mcp_drover_read_inbox"]\ndecision = "allow"');
      const preApproved = JSON.parse(contentOf(gemini(true), 'settings.json'));
      expect(preApproved.mcpServers.drover).toEqual({ command: '/data/bin/drover', args: ['mcp'], trust: true });
      expect(preApproved.policyPaths).toBeUndefined();
      expect(settings.hooks.AfterAgent.map((group: { hooks: { command: string }[] }) => group.hooks[0]?.command)).toEqual(['mine', "'/data/bin/drover' hook gemini"]);
      expect(launch.files).toContainEqual({ path: '/data/agent/gemini-home/.gemini/tmp', linkTo: path.join(home, '.gemini', 'tmp') });
      expect(launch.args[0]).toBe('--session-id');
    } finally {
      removeDir(home);
    }
  });

  it('refuses a command that is not installed', () => {
    expect(() =>
      planLaunch({ profile: { ...profile('aider'), command: 'aider-not-here', unavailableReason: 'aider-not-here is not installed' }, agent, socketPath: '', shimDir: '', agentDir: '', resumeId: null, proof: 'ab12', preApproveDroverTools: false, accountPaused: false, baseEnv: env }),
    ).toThrow(/not installed/);
  });
});
