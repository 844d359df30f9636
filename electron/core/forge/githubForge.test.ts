import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Check } from '../../../shared/forge';
import { FakeGitHub } from '../../../test-support/fakeGitHub';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { GitHubForge } from './githubForge';

const TOKEN = 'ghp_testtoken0123456789';
/** The fake's failed test job: a check run without annotations, so its job log is quoted. */
const FAILED_TEST_JOB: Check = { id: 'run:1002', name: 'test (node 20)', state: 'failed', conclusion: 'failure', summary: null, url: null };
const LOG_FILLER_BYTES = 24 * 1024 * 1024;

describe("a failed job's log", () => {
  let dir: string;
  let fake: FakeGitHub;
  const forge = (logReadTimeoutMs?: number) =>
    new GitHubForge({ apiUrl: fake.url, repository: 'acme/shop', token: TOKEN, tokenSource: 'GH_TOKEN', userAgent: 'drover/test', log: () => {}, ...(logReadTimeoutMs ? { logReadTimeoutMs } : {}) });
  const logDownload = () => fake.requests.find((request) => request.origin !== fake.url && request.url === '/logs/1002');

  beforeEach(async () => {
    dir = makeTempDir();
    fake = new FakeGitHub({ repository: 'acme/shop', bareRepo: dir, token: TOKEN });
    fake.jobLogFillerBytes = LOG_FILLER_BYTES;
    await fake.listen();
  });
  afterEach(async () => {
    await fake.close();
    removeDir(dir);
  });

  it('is asked for by its last 32 KB only, and quoted from there as cut', async () => {
    const details = await forge().failureDetails(FAILED_TEST_JOB);
    expect(details).toMatch(/^Log tail:\n…x+\nRunning tests\n/);
    expect(details).toContain(FakeGitHub.LOG_FAILURE);
    expect(logDownload()).toMatchObject({ range: 'bytes=-32768', status: 206, bytesServed: 32 * 1024 });
  });

  it('from a server that ignores the range, is streamed whole and only its end kept', async () => {
    fake.jobLogHonoursRange = false;
    const details = await forge().failureDetails(FAILED_TEST_JOB);
    expect(details).toMatch(/^Log tail:\n…x+\nRunning tests\n/);
    expect(details).toContain(FakeGitHub.LOG_FAILURE);
    expect(logDownload()?.status).toBe(200);
  });

  it('that stalls is given up after the read timeout: the details come without it', async () => {
    fake.jobLogStalls = true;
    expect(await forge(300).failureDetails(FAILED_TEST_JOB)).toBe('');
    expect(logDownload()?.bytesServed).toBeGreaterThan(0);
  });
});
