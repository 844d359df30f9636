import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxMethodName } from '../../../shared/contract/inbox';
import { DEFAULT_PROJECT_SETTINGS } from '../../../shared/entities/projects';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import type { AgentCaller, Client, Methods } from '../api';
import { EventBus } from '../events/eventBus';
import { inboxMethods } from '../inbox/inboxMethods';
import { MediatedInbox } from '../inbox/mediatedInbox';
import { Locator } from '../locate';
import { ProjectRegistry } from '../projects/projectRegistry';
import { APP_MIGRATIONS } from '../storage/appSchema';
import { ProjectStores, type ProjectStore } from '../storage/projectStores';
import { ProjectTable } from '../storage/projectTable';
import { openDatabase, type SqliteDatabase } from '../storage/sqlite';
import { restrictAgents } from './agentAccess';

describe('an agent whose session ends while its call runs', () => {
  let dir: string;
  let appDb: SqliteDatabase;
  let stores: ProjectStores;
  let store: ProjectStore;
  let inbox: Methods<InboxMethodName>;
  let locator: Locator;
  let ended: string | null;
  let client: Client;

  beforeEach(() => {
    dir = makeTempDir();
    appDb = openDatabase(path.join(dir, 'app.sqlite'), { migrations: APP_MIGRATIONS, description: 'app database' });
    const events = new EventBus();
    const projects = new ProjectRegistry(new ProjectTable(appDb), events);
    stores = new ProjectStores({ dataDir: dir, settingsDefaults: DEFAULT_PROJECT_SETTINGS });
    store = stores.get(projects.add(dir, (projectId) => stores.createEmpty(projectId)).id);
    for (const [id, name] of [['a-alice', 'Alice'], ['a-dave', 'Dave']] as const) store.agents.insert({ id, name, role: '', profileId: 'shell', createdAt: 1 });
    locator = new Locator(projects, stores);
    inbox = inboxMethods(new MediatedInbox(locator, projects, stores, events));
    ended = null;
    const alice: AgentCaller = { kind: 'agent', projectId: store.projectId, agentId: 'a-alice', agentName: 'Alice', sessionId: 's-alice', ended: () => ended };
    client = { signal: new AbortController().signal, caller: alice, identifyAs: () => undefined, sendTaskOutput: () => undefined, sendTerminal: () => undefined };
  });
  afterEach(() => {
    stores.closeAll();
    appDb.close();
    removeDir(dir);
  });

  it('is answered what a call that changed something did, so its next session does not do it again', async () => {
    let finish = () => {};
    const finishing = new Promise<void>((resolve) => (finish = resolve));
    const restricted = restrictAgents(
      {
        sendMessage: async (params, caller) => {
          const sent = await inbox.sendMessage(params, caller);
          await finishing;
          return sent;
        },
      },
      locator,
    );
    const sending = restricted.sendMessage({ projectId: store.projectId, to: 'Dave', kind: 'note', body: 'tests pass', fromAgentId: 'a-alice' }, client);
    ended = "Alice's session ended";
    finish();
    await expect(sending).resolves.toMatchObject({ agentId: 'a-dave', body: 'tests pass' });
    expect(store.inbox.messages('a-dave').map((message) => message.body)).toEqual(['tests pass']);
  });

  it('is refused when it waited for something, since what it waited for stays for the next session', async () => {
    const question = await inbox.sendMessage({ projectId: store.projectId, to: 'Dave', kind: 'question', body: 'Ready?', fromAgentId: 'a-alice' }, client);
    const restricted = restrictAgents({ awaitReply: inbox.awaitReply }, locator);
    const waiting = restricted.awaitReply({ questionId: question.id, timeoutMs: 100 }, client);
    ended = "Alice's session ended";
    await expect(waiting).rejects.toMatchObject({ code: 'forbidden', message: expect.stringContaining("Alice's session ended: it speaks for nobody now") });
  });
});
