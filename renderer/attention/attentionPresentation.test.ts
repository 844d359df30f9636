import { describe, expect, it } from 'vitest';
import { makeAgent, makeSession, makeTask } from '../testing/fixtures';
import { agentAttention, conflictAttention, taskAttention, type AttentionItem } from '../store/attention';
import { notificationText, presentItem } from './attentionPresentation';

const NOW = new Date(2025, 4, 6, 15, 0).getTime();
const ada = makeAgent({ name: 'Ada' });
const agentItem = (session: Parameters<typeof makeSession>[0]) => agentAttention(ada, makeSession(session)) as AttentionItem;

describe('presentItem', () => {
  it('says what each kind of item asks of the person', () => {
    expect(presentItem(agentItem({ needsInput: true }), NOW)).toMatchObject({ status: { label: 'Needs input' }, subject: 'Ada' });
    expect(presentItem(agentItem({ state: 'limited', limitResetsAt: new Date(2025, 4, 6, 20, 0).getTime() }), NOW).detail).toMatch(/^hit a usage limit, resets /);
    expect(presentItem(agentItem({ state: 'exited', endReason: 'exited', exitCode: 2 }), NOW).detail).toBe('exited with code 2');
    expect(presentItem(agentItem({ state: 'exited', endReason: 'spawn-failed: ENOENT' }), NOW).detail).toBe('could not start: ENOENT');
    const failed = taskAttention(makeTask({ state: 'failed', label: 'lint', exitCode: 3 })) as AttentionItem;
    expect(presentItem(failed, NOW)).toMatchObject({ status: { label: 'Task failed', tone: 'failed' }, subject: 'lint', detail: 'exit 3' });
    const conflict = conflictAttention({ id: 'a-ada111+a-bob111', projectId: 'p-aaaaaa', agents: ['a-ada111', 'a-bob111'], agentNames: ['Ada', 'Bob'], conflictFiles: ['a.ts', 'b.ts'], seq: 3 });
    expect(presentItem(conflict, NOW)).toEqual({ status: { label: 'Branches conflict', tone: 'failed' }, subject: 'Ada and Bob', detail: 'conflict in a.ts, b.ts' });
  });

  it('words a notification with the project it is in', () => {
    expect(notificationText(agentItem({ needsInput: true }), 'shop', NOW)).toEqual({ title: 'Ada: needs input', body: 'shop · waiting for your answer' });
    const failed = taskAttention(makeTask({ state: 'failed', label: 'lint', exitCode: 3 })) as AttentionItem;
    expect(notificationText(failed, 'shop', NOW)).toEqual({ title: 'Task failed: lint', body: 'shop · exit 3' });
  });
});
