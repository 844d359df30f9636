import { describe, expect, it } from 'vitest';
import { apiUrlForHost, ghHostnameOf, parseRemoteUrl } from './forgeRemote';

describe('which forge a remote is on', () => {
  it('reads the repository from every remote form git takes', () => {
    const expected = { host: 'github.com', repository: 'octo-org/octo-repo' };
    for (const remote of [
      'https://github.com/octo-org/octo-repo.git',
      'https://github.com/octo-org/octo-repo',
      'https://person:secret@github.com/octo-org/octo-repo.git',
      'git@github.com:octo-org/octo-repo.git',
      'ssh://git@github.com/octo-org/octo-repo.git',
      'ssh://git@github.com:22/octo-org/octo-repo',
    ]) {
      expect(parseRemoteUrl(remote), remote).toEqual(expected);
    }
    expect(parseRemoteUrl('git@github.acme.com:team/app.git')).toEqual({ host: 'github.acme.com', repository: 'team/app' });
  });

  it('refuses what is no forge repository', () => {
    for (const remote of ['/srv/git/app.git', '../app.git', 'file:///srv/git/app.git', 'https://github.com/just-an-owner', 'https://github.com/a/b/c']) {
      expect(parseRemoteUrl(remote), remote).toBeNull();
    }
  });

  it('tells github.com from an Enterprise Server and from other forges', () => {
    expect(apiUrlForHost('github.com')).toBe('https://api.github.com');
    expect(apiUrlForHost('github.acme.com')).toBe('https://github.acme.com/api/v3');
    expect(apiUrlForHost('gitlab.com')).toBeNull();
    expect(apiUrlForHost('gitlab.acme.com')).toBeNull();
    expect(apiUrlForHost('git.acme.com')).toBeNull();
    expect(ghHostnameOf('https://api.github.com')).toBe('github.com');
    expect(ghHostnameOf('https://github.acme.com/api/v3')).toBe('github.acme.com');
  });
});
