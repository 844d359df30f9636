import { describe, expect, it } from 'vitest';
import type { Agent } from '../../../shared/entities/agents';
import { commitFiles, git, writeFiles } from '../../../test-support/gitRepo';
import { overlapProjectPerTest, TEN_LINES, withLines } from '../../../test-support/overlapProjectPerTest';
import { waitFor } from '../../../test-support/waitFor';

describe('conflict notices and telling both agents (real git)', () => {
  const fixture = overlapProjectPerTest();
  const { addAgent, folderOf, events } = fixture;
  const noticeEvents = () => events.flatMap((event) => (event.name === 'conflictNoticeChanged' ? [event] : []));
  const overlapEvents = () => events.flatMap((event) => (event.name === 'projectOverlapsChanged' ? [event] : []));
  const notices = async () => (await fixture.core.api.getWorkState({ projectId: fixture.project.id })).conflictNotices.map((notice) => notice.agentNames.join(' & ')).sort();
  const setAlerts = (conflictAlerts: boolean) => fixture.core.api.updateProjectSettings({ projectId: fixture.project.id, settings: { conflictAlerts } });
  const inboxText = async (agent: Agent) => (await fixture.core.api.listInbox({ agentId: agent.id, unreadOnly: false })).messages.map((message) => message.body).join('\n');

  it('makes a notice of a conflict that appears only while the alerts are on, once per pair, and drops it when the conflict goes', async () => {
    expect((await fixture.core.api.getProjectSettings({ projectId: fixture.project.id })).conflictAlerts).toBe(false);
    const [alpha, beta, gamma] = [await addAgent('alpha'), await addAgent('beta'), await addAgent('gamma')];
    commitFiles(await folderOf(alpha), { 'shared.txt': withLines(TEN_LINES, { 4: 'alpha' }) }, 'alpha');
    commitFiles(await folderOf(beta), { 'shared.txt': withLines(TEN_LINES, { 4: 'beta' }) }, 'beta');
    await waitFor(() => overlapEvents().at(-1)?.pairs.some((pair) => pair.conflict), 'alpha and beta to conflict');
    expect(noticeEvents()).toEqual([]);

    await setAlerts(true);
    commitFiles(await folderOf(gamma), { 'shared.txt': withLines(TEN_LINES, { 4: 'gamma' }) }, 'gamma');
    await waitFor(() => noticeEvents().length === 2, 'gamma’s two new conflicts to be noticed');
    // alpha and beta conflicted before the alerts were on: not new.
    expect(await notices()).toEqual(['alpha & gamma', 'beta & gamma']);
    expect(noticeEvents().map((event) => event.notice?.conflictFiles)).toEqual([['shared.txt'], ['shared.txt']]);

    // A change that leaves the conflicts standing notices nothing again.
    writeFiles(await folderOf(alpha), { 'other.txt': withLines(TEN_LINES, { 2: 'alpha' }) });
    writeFiles(await folderOf(gamma), { 'other.txt': withLines(TEN_LINES, { 2: 'gamma' }) });
    await waitFor(() => overlapEvents().at(-1)?.pairs.some((pair) => pair.files.some((file) => file.path === 'other.txt')), 'the new overlap to be announced');
    expect(noticeEvents()).toHaveLength(2);

    git(await folderOf(gamma), 'reset', '--hard', 'HEAD~1');
    await waitFor(() => noticeEvents().length === 4, 'the notices to go with the conflicts');
    expect(noticeEvents().slice(2).map((event) => event.notice)).toEqual([null, null]);
    expect(await notices()).toEqual([]);
  });

  it('drops the notices when the alerts are turned off', async () => {
    await setAlerts(true);
    const [alpha, beta] = [await addAgent('alpha'), await addAgent('beta')];
    commitFiles(await folderOf(alpha), { 'shared.txt': withLines(TEN_LINES, { 4: 'alpha' }) }, 'alpha');
    commitFiles(await folderOf(beta), { 'shared.txt': withLines(TEN_LINES, { 4: 'beta' }) }, 'beta');
    await waitFor(async () => (await notices()).length === 1, 'the conflict to be noticed');

    await setAlerts(false);
    expect(await notices()).toEqual([]);
    expect(noticeEvents().at(-1)?.notice).toBeNull();
  });

  it("tells each of two conflicting agents the files, the lines each changes and the other agent; refuses a pair that does not conflict", async () => {
    const [alpha, beta, gamma] = [await addAgent('alpha'), await addAgent('beta'), await addAgent('gamma')];
    commitFiles(await folderOf(alpha), { 'shared.txt': withLines(TEN_LINES, { 4: 'alpha', 5: 'alpha' }) }, 'alpha');
    commitFiles(await folderOf(beta), { 'shared.txt': withLines(TEN_LINES, { 4: 'beta', 9: 'beta' }) }, 'beta');
    commitFiles(await folderOf(gamma), { 'other.txt': withLines(TEN_LINES, { 4: 'gamma' }) }, 'gamma');

    const told = await fixture.core.api.tellOverlapAgents({ projectId: fixture.project.id, agents: [alpha.id, beta.id] });

    expect(told.map((message) => [message.agentId, message.kind])).toEqual([
      [alpha.id, 'note'],
      [beta.id, 'note'],
    ]);
    expect(await inboxText(alpha)).toContain(`and beta's branch`);
    expect(await inboxText(alpha)).toContain('- shared.txt: you change lines 4-5; beta changes lines 4, 9');
    expect(await inboxText(beta)).toContain('- shared.txt: you change lines 4, 9; alpha changes lines 4-5');
    expect(await inboxText(beta)).toContain('Agree with alpha');

    await expect(fixture.core.api.tellOverlapAgents({ projectId: fixture.project.id, agents: [alpha.id, gamma.id] })).rejects.toThrow('alpha and gamma do not conflict');
    await expect(fixture.core.api.tellOverlapAgents({ projectId: fixture.project.id, agents: [alpha.id, alpha.id] })).rejects.toThrow('alpha cannot conflict with itself');
    await expect(fixture.core.api.tellOverlapAgents({ projectId: fixture.project.id, agents: [alpha.id, 'a-nobody1'] })).rejects.toThrow('No agent a-nobody1 in this project');
    expect(await inboxText(gamma)).toBe('');
  });
});
