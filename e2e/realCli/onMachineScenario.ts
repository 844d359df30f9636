import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSession } from '../../shared/entities/sessions';
import type { DroverEvent } from '../../shared/events';
import { sshClientFrom, type Machine } from '../../shared/machines';
import { connectToDrover, type SocketClient } from '../../electron/cli/socketClient';
import { BUILT_IN_PROFILES } from '../../electron/core/profiles/builtInProfiles';
import { sshLauncher } from '../../electron/wire/sshProcess';
import { openSshRelay, type SshRelay } from '../../electron/wire/sshRelay';
import { endDroverProcessesIn, runCli, stopHostOf } from '../../test-support/droverProcess';
import type { CliScenarioFixture } from '../../test-support/realCli/agentCliFixtures';
import agentClis from '../../test-support/realCli/agentClis.json';
import { sessionStates } from '../../test-support/realCli/realCliRig';
import { installCliForRemote } from '../../test-support/realCli/remoteCliInstall';
import type { ScriptedModelServer } from '../../test-support/realCli/scriptedModelServer';
import { CAN_RUN_SSHD, SSHD_REQUIREMENT, startSshRemote, type SshRemote } from '../../test-support/sshServer';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';

const ready = (session: AgentSession) => session.state === 'ready' && !session.needsInput;

/**
 * The real agent CLI as an agent on another machine: a real sshd on 127.0.0.1 with a throwaway
 * user as "the remote", the machine added to a local Drover, the CLI installed in that user's
 * `~/.local` and run there by the remote's Drover host through a profile of the user's own (its
 * command and its model server, as a person points a CLI at a gateway). The model is the suite's
 * fake, on this same machine's loopback, so the remote user reaches it.
 */
export function describeRealCliOnMachine(fixture: CliScenarioFixture): void {
  const packageName = agentClis.bins[fixture.profileId];
  describe(`${fixture.profileId} ${fixture.version} on another machine (the real CLI, as an agent of that machine's Drover, over the real OpenSSH)`, { timeout: 180_000 }, () => {
    it('runs there, hands a task to Drover over MCP, the task runs there, and its end wakes the CLI with its result', async (context) => {
      context.skip(!CAN_RUN_SSHD, SSHD_REQUIREMENT);
      const cleanups: (() => Promise<void> | void)[] = [];
      try {
        const remote: SshRemote = await startSshRemote();
        cleanups.push(() => remote.stop());
        const { server: model, url: modelUrl }: { server: ScriptedModelServer; url: string } = await fixture.startModel();
        cleanups.push(() => model.close());

        const dir = makeTempDir(`drover-${fixture.profileId}-on-machine-`);
        // Last, after the host's stop: ends a host whose `host start` failed before its stop was registered.
        cleanups.push(async () => {
          await endDroverProcessesIn(dir);
          removeDir(dir);
        });
        const dataDir = path.join(dir, 'data');
        const env = { ...process.env, DROVER_SOCKET: '', DROVER_SSH_COMMAND: remote.sshCommand };
        const drover = async (...args: string[]) => {
          const result = await runCli(['--data-dir', dataDir, ...args], { env, cwd: dir });
          expect(result.code, `drover ${args.join(' ')}: ${result.stderr}`).toBe(0);
          return result.stdout;
        };
        await drover('host', 'start');
        cleanups.push(() => stopHostOf(dataDir));
        await drover('machine', 'add', 'box', remote.alias);

        // The person's project there, and their CLI, set up and pointed at the model server.
        remote.ssh('git init -q app && cd app && echo "# An app on the box" > README.md && git add README.md && git -c user.name=t -c user.email=t@example.com commit -q -m start');
        const app = path.join(remote.home, 'app');
        await drover('--machine', 'box', 'project', 'add', app);
        const { env: cliEnv } = fixture.prepareHome(remote.home, { modelUrl, firstRun: false, projectDir: app });
        remote.chownHome();
        // After the chown: the CLI's files are hard links to the suite's cache, which stays root's.
        const command = installCliForRemote(remote, packageName, fixture.profileId);
        const { HOME: _home, ...profileEnv } = cliEnv;

        const machine = (JSON.parse(await drover('machine', 'list', '--json')) as Machine[]).find((m) => m.name === 'box') as Machine;
        const relay: SshRelay = await openSshRelay(sshLauncher(sshClientFrom(env)), machine);
        cleanups.push(() => relay.close());
        const events: DroverEvent[] = [];
        const there: SocketClient = await connectToDrover(relay.socketPath, { onEvent: (event) => events.push(event) });
        cleanups.push(() => there.close());
        const call = there.rpc.call.bind(there.rpc);

        const project = (await call('listProjects', {})).projects.find((p) => p.path === app);
        if (!project) throw new Error(`the project ${app} is not on the box's Drover`);
        const builtIn = BUILT_IN_PROFILES.find((p) => p.id === fixture.profileId);
        if (!builtIn) throw new Error(`no built-in profile ${fixture.profileId}`);
        const profile = await call('saveAgentProfile', { profile: { ...builtIn, id: `${fixture.profileId}-box`, name: `${builtIn.name} (box)`, command, env: profileEnv } });
        expect(profile.unavailableReason).toBeNull();
        await call('updateProjectSettings', { projectId: project.id, settings: { preApproveDroverTools: true } });
        const agent = await call('createAgent', { projectId: project.id, name: 'remote-agent', role: '', profileId: profile.id });

        const session = async () => (await call('getWorkState', { projectId: project.id })).sessions.find((s) => s.agentId === agent.id);
        const diagnosis = async () => {
          const states = sessionStates(events, agent.id);
          const wakes = (await call('getWorkState', { projectId: project.id })).wakes.filter((w) => w.agentId === agent.id);
          const screen = await call('readAgentScreen', { agentId: agent.id }).then((s) => s.text.split('\n').slice(-30).join('\n'), (error: Error) => error.message);
          return `states: ${states.join(' > ')}\nwakes: ${JSON.stringify(wakes)}\nscreen:\n${screen}`;
        };
        const explained = async <T>(waiting: Promise<T>): Promise<T> => {
          try {
            return await waiting;
          } catch (error) {
            throw new Error(`${(error as Error).message}\n${await diagnosis()}`, { cause: error });
          }
        };
        const sessionWhere = (match: (session: AgentSession) => boolean, what: string, timeoutMs = 60_000) =>
          explained(
            waitFor(async () => {
              const current = await session();
              return current && match(current) ? current : undefined;
            }, what, timeoutMs),
          );
        const modelReceives = (text: string, from = 0) =>
          explained(model.waitForRequest((request) => request.turn && (fixture.lastUserText(request) ?? '').includes(text), `"${text}"`, 60_000, from));

        await call('startAgent', { agentId: agent.id, resume: false });
        await sessionWhere(ready, 'the agent ready at its prompt on the box');
        // The box's Drover read the CLI's version there, from the package it runs.
        const versioned = await sessionWhere((s) => s.cliVersion !== null, 'the CLI version read on the box', 30_000);
        expect(versioned.cliVersion).toEqual({ version: fixture.version, newerThanTested: null });

        // A person's note wakes it; the model hands the build to Drover, which holds it at a gate.
        const gate = path.join(remote.home, 'build.gate');
        const build = `until [ -e ${gate} ]; do sleep 0.2; done; echo "built-ok as $(id -un) on $(hostname) in $(pwd)"`;
        model.enqueue({ kind: 'tool-call', name: 'run_in_background', input: { command: build, label: 'build' } }, { kind: 'text', text: 'The build runs in the background.' });
        await call('sendMessage', { projectId: project.id, to: agent.id, kind: 'note', body: 'build it in the background' });
        await modelReceives('[Drover] New message: Note from a person: build it in the background');
        const task = await explained(waitFor(async () => (await call('listTasks', { projectId: project.id })).tasks.find((t) => t.label === 'build'), 'the task from run_in_background on the box', 60_000));
        expect(task.ownerAgentId).toBe(agent.id);
        expect(task.command).toBe(build);
        await explained(model.waitForRequest((r) => r.turn && JSON.stringify(r.body).includes(`Started background task ${task.id}`), 'the result of run_in_background', 30_000));
        await sessionWhere(ready, 'the agent ready after handing off the task');

        const quota = fixture.quotaAfterTurn;
        // The CLI's hooks there reach the box's Drover too: its status line's plan quota.
        if (quota) await sessionWhere((s) => s.quota?.fiveHour?.usedPercent === quota.fiveHour && s.quota.weekly?.usedPercent === quota.weekly, 'the plan quota from the box', 30_000);

        const from = model.requests.length;
        model.enqueue({ kind: 'text', text: 'Thanks, the build is done.' });
        remote.ssh(`touch ${gate}`);
        const woken = await modelReceives(`[Drover] New message: Task ${task.id} "build"`, from);
        expect(fixture.lastUserText(woken)).toMatch(new RegExp(`succeeded: exit code 0[\\s\\S]*built-ok as ${remote.user} on .* in ${app}`));
        await explained(waitFor(async () => (await call('getWorkState', { projectId: project.id })).wakes.find((w) => w.agentId === agent.id)?.state === 'delivered', 'the wake delivered', 30_000));
      } finally {
        for (const cleanup of cleanups.reverse()) await cleanup();
      }
    });
  });
}
