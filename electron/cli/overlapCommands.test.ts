import { describe, expect, it } from 'vitest';
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
});
