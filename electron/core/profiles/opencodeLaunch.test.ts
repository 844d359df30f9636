import { describe, expect, it } from 'vitest';
import { opencodeLaunch } from './opencodeLaunch';

const launch = (env: NodeJS.ProcessEnv, preApproveDroverTools = false, resumeId: string | null = null) =>
  opencodeLaunch({ drover: '/data/bin/drover', agentDir: '/data/agent', resumeId, env, preApproveDroverTools, accountPaused: false });
const configOf = (env: NodeJS.ProcessEnv, preApprove = false) => JSON.parse(launch(env, preApprove).env?.OPENCODE_CONFIG_CONTENT ?? '{}');

describe('opencodeLaunch', () => {
  it("adds Drover's MCP server, its tools' permissions and its plugin over the person's own OPENCODE_CONFIG_CONTENT", () => {
    const own = { theme: 'tokyonight', plugin: ['their-plugin'], mcp: { docs: { type: 'remote', url: 'https://docs' } }, permission: 'ask' };
    const config = configOf({ OPENCODE_CONFIG_CONTENT: JSON.stringify(own) });
    expect(config.theme).toBe('tokyonight');
    expect(config.mcp).toEqual({ docs: own.mcp.docs, drover: { type: 'local', command: ['/data/bin/drover', 'mcp'], enabled: true } });
    expect(config.plugin).toEqual(['their-plugin', 'file:///data/agent/opencode-plugin/drover.js']);
    // The person's one word for every tool stays the default; Drover's tools ask, but the read-only ones.
    expect(config.permission).toEqual({ '*': 'ask', 'drover_*': 'ask', drover_list_tasks: 'allow', drover_get_task: 'allow', drover_read_inbox: 'allow' });
    expect(configOf({}, true).permission).toEqual({ 'drover_*': 'allow' });
    expect(configOf({ OPENCODE_CONFIG_CONTENT: 'not json' }).mcp).toEqual({ drover: { type: 'local', command: ['/data/bin/drover', 'mcp'], enabled: true } });
  });

  it('resumes the conversation its plugin reported, and writes the plugin into the agent folder', () => {
    expect(launch({}).args).toEqual([]);
    expect(launch({}, false, 'ses_abc').args).toEqual(['--session', 'ses_abc']);
    expect(launch({}).files.map((file) => file.path)).toEqual(['/data/agent/opencode-plugin/drover.js']);
  });
});
