import { describe, expect, it } from 'vitest';
import { missingOnRemote, type RemoteFacts } from './remoteInstall';

const bundle = { version: '0.1.0', buildId: '0123456789abcdef', nodeAbi: '115', nodeVersion: '20.20.2', platform: 'linux', arch: 'x64' };
const ready: RemoteFacts = { node: { version: '20.11.0', abi: '115', platform: 'linux', arch: 'x64' }, git: 'git version 2.39.5', installedBuild: null };

describe('what a remote needs to run this Drover host', () => {
  it('accepts a remote with the same Node ABI, platform and git', () => {
    expect(missingOnRemote('box', ready, bundle)).toBeNull();
  });

  it('names what is missing and how to get it', () => {
    expect(missingOnRemote('box', { ...ready, node: null }, bundle)).toMatch(/^box has no `node` on the PATH of an ssh login\. Drover's host needs Node\.js 20 \(ABI 115\) on linux-x64 and git there: install them/);
    expect(missingOnRemote('box', { ...ready, node: { version: '22.12.0', abi: '127', platform: 'linux', arch: 'x64' } }, bundle)).toBe(
      "box runs Node.js 22.12.0 (ABI 127) on linux-x64; this Drover's host needs Node.js 20 (ABI 115) on linux-x64 there, for its terminal and database modules. Install that Node there and try again.",
    );
    expect(missingOnRemote('box', { ...ready, node: { version: '20.11.0', abi: '115', platform: 'linux', arch: 'arm64' } }, bundle)).toContain('on linux-arm64');
    expect(missingOnRemote('box', { ...ready, git: null }, bundle)).toContain('box has no `git`');
  });
});
