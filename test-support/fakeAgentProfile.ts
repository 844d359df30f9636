import path from 'node:path';
import type { AgentProfileInput } from '../shared/entities/profiles';
import { REPO_ROOT } from './buildOnce';

/**
 * The fake agent CLI (`e2e/fixtures/fake-agent.mjs`), run by node, with Claude-style hooks so its
 * conversation can be resumed: for fast tests of Drover's side only, never of a real CLI's behaviour.
 */
export const FAKE_PROFILE: AgentProfileInput = {
  id: 'fake',
  name: 'Fake agent',
  command: process.execPath,
  args: [path.join(REPO_ROOT, 'e2e', 'fixtures', 'fake-agent.mjs')],
  env: { FAKE_AGENT_WORK_MS: '1500' },
  promptPattern: '^fake> ?$',
  busyPattern: 'esc to interrupt',
  needsInputPattern: null,
  usageLimitPattern: null,
  quietMs: 150,
  integration: 'claude',
  wakeAs: 'prompt',
};
