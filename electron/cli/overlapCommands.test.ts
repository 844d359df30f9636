import { describe, expect, it } from 'vitest';
import type { Worktree } from '../../shared/entities/worktrees';
import { cliProjectPerTest } from '../../test-support/cliProjectPerTest';
import { commitFiles } from '../../test-support/gitRepo';

describe('drover worktree overlaps', () => {
  const drover = cliProjectPerTest({ 'shared.txt': 'one\ntwo\nthree\n', 'other.txt': 'one\n' });
  const { cli, addAgent } = drover;

  it('prints the pairs of agents changing the same lines, as JSON and as a table, with the branches that conflict with their parent', async () => {
    expect((await cli(['worktree', 'overlaps'])).stdout).toBe('No two agents of repo change the same files.\n');
    const [alpha, beta, gamma] = [await addAgent('alpha'), await addAgent('beta'), await addAgent('gamma')];
    commitFiles(alpha.path, { 'shared.txt': 'one\nalpha\nthree\n' }, 'alpha');
    commitFiles(beta.path, { 'shared.txt': 'one\nbeta\nthree\n' }, 'beta');
    commitFiles(gamma.path, { 'other.txt': 'gamma\n' }, 'gamma');
    commitFiles(drover.repo, { 'other.txt': 'main\n' }, 'main');

    const json = await cli(['worktree', 'overlaps', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([{ agents: ['alpha', 'beta'], files: [{ path: 'shared.txt', lines: [[2, 2]] }], conflict: true }]);

    const text = await cli(['worktree', 'overlaps', '--project', drover.repo]);
    expect(text.stdout.split('\n')).toEqual([
      expect.stringMatching(/^AGENTS\s+CONFLICT\s+FILES BOTH CHANGE$/),
      expect.stringMatching(/^alpha, beta\s+yes \(shared\.txt\)\s+shared\.txt \(lines 2\)$/),
      `gamma's branch ${gamma.branch} conflicts with main in other.txt.`,
      '',
    ]);
  });

  it('turns the conflict alerts on and off, and tells two conflicting agents where they conflict; refuses a pair that does not', async () => {
    const [alpha, beta, gamma] = [await addAgent('alpha'), await addAgent('beta'), await addAgent('gamma')];
    commitFiles(alpha.path, { 'shared.txt': 'one\nalpha\nthree\n' }, 'alpha');
    commitFiles(beta.path, { 'shared.txt': 'one\nbeta\nthree\n' }, 'beta');
    commitFiles(gamma.path, { 'other.txt': 'gamma\n' }, 'gamma');

    expect((await cli(['worktree', 'overlaps', '--alerts', 'on'])).stdout).toMatch(/^Conflict alerts are on for repo/);
    expect((await drover.host.core.api.getProjectSettings({ projectId: drover.project.id })).conflictAlerts).toBe(true);
    expect(await cli(['worktree', 'overlaps', '--alerts', 'maybe'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--alerts takes on or off, not maybe') });
    await cli(['worktree', 'overlaps', '--alerts', 'off']);
    expect((await drover.host.core.api.getProjectSettings({ projectId: drover.project.id })).conflictAlerts).toBe(false);

    const told = await cli(['worktree', 'overlaps', '--tell', 'alpha,beta']);
    expect(told.stdout, told.stderr).toBe('Told alpha and beta where their branches conflict (a note in each inbox).\n');
    const inbox = async (worktree: Worktree) => (await drover.host.core.api.listInbox({ agentId: worktree.agentId, unreadOnly: false })).messages.map((message) => message.body);
    expect(await inbox(alpha)).toEqual([expect.stringContaining('- shared.txt: you change line 2; beta changes line 2')]);
    expect(await inbox(beta)).toEqual([expect.stringContaining('- shared.txt: you change line 2; alpha changes line 2')]);

    const refused = await cli(['worktree', 'overlaps', '--tell', 'alpha,gamma']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('alpha and gamma do not conflict');
    expect(await cli(['worktree', 'overlaps', '--tell', 'alpha'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--tell takes two agents') });
  });
});
