import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSession } from '../../shared/entities/sessions';
import { setTurnDelay, type CliScenarioFixture, type DialogAnswer } from '../../test-support/realCli/agentCliFixtures';
import { RealCliRig } from '../../test-support/realCli/realCliRig';
import type { RecordedRequest } from '../../test-support/realCli/scriptedModelServer';
import { waitFor } from '../../test-support/waitFor';

const ready = (session: AgentSession) => session.state === 'ready' && !session.needsInput;
const needsInput = (session: AgentSession) => session.needsInput;
/** How long an agent sits idle in the idle scenario: past Claude Code's 60 s idle notification. */
const LONG_IDLE_MS = 75_000;

/**
 * The real agent CLI, run by Drover as a person would run it, against a local fake model: what
 * Drover reads off it (ready, busy, needs input, limited), whether a wake ever reaches a dialog, and
 * whether what Drover typed reaches the model. The screens seen are recorded as the detector's
 * fixtures when DROVER_RECORD_SCREENS is set.
 */
export function describeRealCli(fixture: CliScenarioFixture): void {
  describe(`${fixture.profileId} ${fixture.version} (the real CLI, as a Drover agent)`, { timeout: 240_000 }, () => {
    let rig: RealCliRig | undefined;
    const start = async (firstRun = false) => {
      rig = await RealCliRig.start(fixture, { firstRun });
      return rig;
    };
    const userTextsSince = (r: RealCliRig, from: number) =>
      r.model
        .turns()
        .slice(from)
        .map((request: RecordedRequest) => fixture.lastUserText(request) ?? '');
    /** Waits for the model to be sent a user message that contains `text`. */
    const modelReceives = async (r: RealCliRig, text: string, timeoutMs = 60_000, from = 0) => {
      try {
        return await r.model.waitForRequest((request) => request.turn && (fixture.lastUserText(request) ?? '').includes(text), `"${text}"`, timeoutMs, from);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${await r.diagnosis()}`, { cause: error });
      }
    };
    const note = (r: RealCliRig, body: string) => r.host.core.api.sendMessage({ projectId: r.project.id, to: r.agent.id, kind: 'note', body });
    const wakeOf = async (r: RealCliRig) => (await r.host.core.api.getWorkState({ projectId: r.project.id })).wakes.find((w) => w.agentId === r.agent.id);

    /**
     * Answers a dialog as a person does: a key, and the same key again if the dialog is still up a
     * few seconds later and what follows it is not (a CLI starting up, as Gemini CLI after its trust
     * relaunch, can drop a key).
     */
    const answer = async (r: RealCliRig, dialog: RegExp, next: RegExp, keys: DialogAnswer['keys']) => {
      for (let attempt = 1; ; attempt++) {
        await r.waitForStillScreen('the dialog drawn');
        const steps = typeof keys === 'string' ? [keys] : keys(await r.screen.text());
        for (const [index, key] of steps.entries()) {
          if (index > 0) await r.waitForStillScreen('the next key awaited');
          await r.type(key);
        }
        try {
          await waitFor(async () => {
            const text = await r.screen.text();
            return next.test(text) || !dialog.test(text);
          }, 'the dialog answered', 20_000);
          return;
        } catch (error) {
          if (attempt === 3) throw new Error(`${(error as Error).message}\n${await r.diagnosis()}`, { cause: error });
        }
      }
    };

    /**
     * Approves the call the CLI asks about, answering each of its questions in turn (Claude Code
     * 2.1.332 in auto mode first says it cannot check actions here, then asks as usual) until
     * `done`. Fixed keys go at once (Codex keeps redrawing the call's timer behind its dialog, so its
     * screen is never still); keys chosen from the screen go once it is still.
     */
    const approveUntil = async (r: RealCliRig, done: () => Promise<boolean>) => {
      for (let answers = 0; ; answers++) {
        const asked = await waitFor(async () => ((await done()) ? 'done' : (await r.showsDialog()) ? 'asked' : undefined), 'the call to run, or a question', 60_000);
        if (asked === 'done') return;
        if (answers === 3) throw new Error(`still asked after ${answers} answers\n${await r.diagnosis()}`);
        if (typeof fixture.approveOnce === 'string') {
          await r.type(fixture.approveOnce);
        } else {
          await r.waitForStillScreen('the question drawn');
          for (const [index, key] of fixture.approveOnce(await r.screen.text()).entries()) {
            if (index > 0) await r.waitForStillScreen('the next key awaited');
            await r.type(key);
          }
        }
        const answered = await r.screen.text();
        await waitFor(async () => (await done()) || (await r.screen.text()) !== answered, 'the answer taken', 20_000);
      }
    };

    afterEach(async () => {
      await rig?.close();
      rig = undefined;
    });

    it('reads first-run dialogs as Needs input, never Ready, and types nothing into them', async () => {
      const r = await start(true);
      await r.startAgent();
      await note(r, 'Welcome aboard');
      for (const [index, dialog] of fixture.firstRunDialogs.entries()) {
        await r.waitForScreen(dialog.screen, dialog.name);
        await r.waitForSession(needsInput, `${dialog.name} read as needs input`);
        await r.record(dialog.name);
        expect((await wakeOf(r))?.state).toBe('waiting');
        // Ready was never reported while the dialogs were up.
        expect(r.states()).not.toContain('ready');
        await answer(r, dialog.screen, fixture.firstRunDialogs[index + 1]?.screen ?? r.promptPattern(), dialog.keys);
      }
      await r.waitForReady('ready once every dialog is answered', 90_000);
      await modelReceives(r, '[Drover] New message: Note from a person: Welcome aboard');
      await waitFor(async () => (await wakeOf(r))?.state === 'delivered', 'the wake delivered');
      await r.waitForReady('ready after the woken turn');
      await r.record('ready-after-first-run');
    });

    it('reads the idle prompt as Ready, a turn as Busy then Ready, and stays Ready through a long idle; a task result then wakes it', async () => {
      const r = await start();
      // The project pre-approves Drover's tools: run_in_background runs without the CLI asking.
      await r.host.core.api.updateProjectSettings({ projectId: r.project.id, settings: { preApproveDroverTools: true } });
      await r.startAgent();
      await r.waitForReady('ready at the idle prompt');
      await r.record('idle');
      setTurnDelay(r.model, 4_000);
      r.model.enqueue({ kind: 'text', text: 'Hello from the scripted model.' });
      await r.submit('say hello');
      await r.waitForSession((s) => s.state === 'busy', 'busy while the model answers');
      await r.record('busy');
      await r.waitForReady('ready after the turn');
      setTurnDelay(r.model, 0);
      const quota = fixture.quotaAfterTurn;
      if (quota) {
        // The CLI's own plan quota reaches the pane (Claude Code's status line, for subscribers).
        await r.waitForSession((s) => s.quota?.fiveHour?.usedPercent === quota.fiveHour && s.quota.weekly?.usedPercent === quota.weekly, 'the plan quota');
      }

      const gate = path.join(r.dir, 'gate');
      const command = `while [ ! -e ${gate} ]; do sleep 0.2; done; echo built-ok`;
      r.model.enqueue({ kind: 'tool-call', name: 'run_in_background', input: { command, label: 'build' } }, { kind: 'text', text: 'The build runs in the background.' });
      const handOff = await r.submit('build it in the background');
      const task = await waitFor(async () => (await r.host.core.api.listTasks({ projectId: r.project.id })).tasks.find((t) => t.label === 'build'), 'the task from run_in_background', 60_000);
      expect(task.ownerAgentId).toBe(r.agent.id);
      // The model called it as a model can: offered from the start, or (a deferred tool) loaded through the CLI's tool search first.
      const toolName = fixture.modelToolName('run_in_background');
      const offeredAtFirst = r.model.turns()[0]?.tools.callable.includes(toolName) ?? false;
      expect(r.model.toolsLoaded().includes(toolName)).toBe(!offeredAtFirst);
      await r.waitForReady('ready after handing off the task');
      // Pre-approved: the CLI never asked.
      expect(r.states().slice(handOff).filter((state) => state.includes('needs input'))).toEqual([]);
      const idleFrom = Date.now();
      const statesBefore = r.states().length;
      // The scenario is the idle itself: nothing happens for this long, and the agent must stay Ready.
      await waitFor(() => Date.now() - idleFrom >= LONG_IDLE_MS, 'a long idle', LONG_IDLE_MS + 5_000);
      // Nothing but ready through the idle (Claude Code's 60 s idle notification is not a question).
      expect(r.states().slice(statesBefore).filter((state) => state !== 'ready')).toEqual([]);
      expect(ready((await r.session()) as AgentSession)).toBe(true);
      await r.record('idle-after-75s');

      const from = r.model.requests.length;
      r.model.enqueue({ kind: 'text', text: 'Thanks, the build is done.' });
      fs.writeFileSync(gate, '');
      const woken = await modelReceives(r, `[Drover] New message: Task ${task.id} "build"`, 60_000, from);
      expect(fixture.lastUserText(woken)).toMatch(/succeeded: exit code 0.*built-ok/);
      await r.waitForReady('ready after the woken turn');
      expect((await wakeOf(r))?.state).toBe('delivered');
    });

    it('reads an approval dialog as Needs input, never types a wake into it, and delivers it once the person answered', async () => {
      const r = await start();
      await r.startAgent();
      await r.waitForReady('ready');
      const marker = path.join(r.dir, 'approved-marker');
      r.model.enqueue({ kind: 'tool-call', name: 'shell', input: fixture.approvalShell(`touch ${marker}`) }, { kind: 'text', text: 'Understood, I will not.' });
      await r.submit('create the marker');
      await r.waitForSession(needsInput, 'needs input at the approval dialog');
      await r.waitForDialog('the approval dialog drawn');
      await r.record('approval');
      const from = r.model.requests.length;
      await note(r, 'The build is green');
      // Drover must hold the wake for as long as the dialog is up: give it time to (wrongly) type.
      await waitFor(async () => (await wakeOf(r))?.state === 'waiting' && Date.now() > (await wakeOf(r))!.createdAt + 8_000, 'the wake held 8 s', 20_000);
      expect(fs.existsSync(marker)).toBe(false);
      expect(userTextsSince(r, from).some((text) => text.includes('[Drover]'))).toBe(false);
      await r.type('\u001b');
      await r.waitForReady('ready after the person declined');
      await modelReceives(r, '[Drover] New message: Note from a person: The build is green', 60_000, from);
      expect(fs.existsSync(marker)).toBe(false);
    });

    it("asks before run_in_background: the CLI's own approval reads as Needs input and nothing runs until the person approves; the read-only tools never ask", async () => {
      const r = await start();
      await r.startAgent();
      await r.waitForReady('ready');
      r.model.enqueue({ kind: 'tool-call', name: 'list_tasks', input: {} }, { kind: 'text', text: 'There are no tasks yet.' });
      const listing = await r.submit('list the tasks');
      // Its result went back to the model: list_tasks ran without a question.
      await r.model.waitForRequest((request) => request.turn && JSON.stringify(request.body).includes('No tasks.'), 'the result of list_tasks', 60_000).catch(async (error: unknown) => {
        throw new Error(`${(error as Error).message}\n${await r.diagnosis()}`, { cause: error });
      });
      await r.waitForReady('ready after a read-only tool');
      expect(r.states().slice(listing).filter((state) => state.includes('needs input'))).toEqual([]);

      const marker = path.join(r.dir, 'ran-marker');
      r.model.enqueue({ kind: 'tool-call', name: 'run_in_background', input: { command: `touch ${marker}`, label: 'unapproved' } }, { kind: 'text', text: 'It runs in the background.' });
      await r.submit('touch the marker in the background');
      await r.waitForSession(needsInput, 'needs input at the approval of run_in_background');
      await r.waitForDialog('the approval dialog of run_in_background drawn');
      await r.record('drover-tool-approval');
      const askedAt = Date.now();
      // The CLI holds the call while the person has not answered: give it time to (wrongly) run it.
      await waitFor(() => Date.now() - askedAt >= 8_000, 'the question unanswered for 8 s', 20_000);
      expect((await r.host.core.api.listTasks({ projectId: r.project.id })).tasks).toEqual([]);
      expect(fs.existsSync(marker)).toBe(false);
      expect((await r.session())?.needsInput).toBe(true);

      const approvedTask = async () => (await r.host.core.api.listTasks({ projectId: r.project.id })).tasks.find((t) => t.label === 'unapproved');
      await approveUntil(r, async () => (await approvedTask()) !== undefined);
      const task = await waitFor(approvedTask, 'the task once approved', 60_000);
      expect(task.ownerAgentId).toBe(r.agent.id);
      await waitFor(() => fs.existsSync(marker), 'the approved command ran');
      await r.waitForReady('ready after the approved call');
    });

    it('never leaves the pane Busy after an API error, and reads a usage limit as Limited', async () => {
      const r = await start();
      await r.startAgent();
      await r.waitForReady('ready');
      r.model.enqueue({ kind: 'error', status: 500, message: 'Internal error encountered.' });
      let from = await r.submit('this will fail');
      await waitFor(() => r.states().slice(from).includes('busy'), 'the turn to start');
      const afterError = await r.waitForSession((s) => s.state !== 'busy', 'not busy after the API error', 60_000);
      if (afterError.needsInput) {
        // The CLI asks what to do ("Keep trying / Stop"): the person stops it.
        await r.waitForDialog('the question after the error');
        await r.record('api-error');
        await r.waitForStillScreen('the question drawn');
        await r.type('2');
        await r.waitForReady('ready once the person stopped retrying');
      } else {
        await r.waitForReady('ready after the API error');
        await r.record('api-error');
      }
      expect(r.model.pendingTurns).toBe(0);
      r.model.enqueue({ kind: 'rate-limit', message: 'You exceeded your current quota.', retryAfterSeconds: 3 * 3600 });
      from = await r.submit('and this hits the limit');
      await waitFor(() => r.states().slice(from).includes('busy'), 'the turn to start');
      const limited = await r.waitForSession((s) => s.state === 'limited', 'limited', 60_000);
      // A hook may say so before the CLI drew its limit line (Copilot CLI's errorOccurred): the fixture
      // shows the line. Not a still screen: OpenCode's spinner keeps drawing while it waits out the limit.
      await r.waitForLimitLine('the limit drawn');
      expect((await r.session())?.state).toBe('limited');
      await r.record('usage-limit');
      if (fixture.limitShowsReset) expect(limited.limitResetsAt).toBeGreaterThan(Date.now());
    });

    // A retry-after just past a minute: the shortest wait Drover reads as a usage limit.
    const SHORT_LIMIT_SECONDS = 65;
    // Claude Code goes on by itself at a random moment 30–90 s after the reset.
    const CONTINUATION_JITTER_SECONDS = 90;

    it.runIf(fixture.limitContinuation !== null)('a limit resets while the CLI goes on by itself: one continuation, then the wake once it is done, never a second one on top', async () => {
      const r = await start();
      await r.startAgent();
      await r.waitForReady('ready');
      r.model.enqueue({ kind: 'rate-limit', message: 'You exceeded your current quota.', retryAfterSeconds: SHORT_LIMIT_SECONDS }, { kind: 'text', text: 'Picked up where I stopped.' });
      await r.submit('work until the limit');
      await r.waitForSession((s) => s.state === 'limited', 'limited', 60_000);
      const limitedAt = r.model.turns().length;
      const statesAtLimit = r.states().length;
      await note(r, 'the build finished');
      expect((await wakeOf(r))?.state).toBe('waiting');
      // The CLI's own continuation at the reset: its answer waits, so it is seen while it runs.
      const release = r.model.holdNextTurn();
      const continued = fixture.limitContinuation?.userText('work until the limit') ?? '';
      const wentOn = await r.model.waitForRequest((request) => request.turn, 'the CLI going on by itself', (SHORT_LIMIT_SECONDS + CONTINUATION_JITTER_SECONDS + 60) * 1000, r.model.requests.length);
      expect(fixture.lastUserText(wentOn)).toContain(continued);
      await r.waitForSession((s) => s.state === 'busy', 'busy: the continuation noticed', 30_000);
      // Nothing typed before the continuation; a CLI that does not wait at an open prompt is never even ready in between.
      if (!fixture.limitContinuation?.waitsAtPrompt) expect(r.states().slice(statesAtLimit)).not.toContain('ready');
      expect(userTextsSince(r, limitedAt)).toHaveLength(1);
      expect((await wakeOf(r))?.attempts).toBe(0);
      release();
      await modelReceives(r, '[Drover] New message: Note from a person: the build finished', 90_000, limitedAt);
      await waitFor(async () => (await wakeOf(r))?.state === 'delivered', 'the wake delivered');
      await r.waitForReady('ready after the woken turn');
      // The continuation, then the wake: nothing typed on top of it, nothing typed twice.
      const since = userTextsSince(r, limitedAt);
      expect(since.map((text) => (text.includes('the build finished') ? 'wake' : text.includes(continued) ? 'continuation' : text))).toEqual(['continuation', 'wake']);
      expect((await wakeOf(r))?.attempts).toBe(1);
    });

    it('resumes its own conversation after a restart, also after two restarts in a row', async () => {
      const r = await start();
      await r.startAgent();
      await r.waitForReady('ready');
      // Drover read the CLI's version when it started, and knows it as tested.
      await r.waitForSession((s) => s.cliVersion !== null, 'the CLI version read');
      expect((await r.session())?.cliVersion).toEqual({ version: fixture.version, newerThanTested: null });
      r.model.enqueue({ kind: 'text', text: 'I will remember pineapple.' });
      const from = await r.submit('remember the word pineapple');
      await r.model.waitForRequest((request) => request.turn && (fixture.lastUserText(request) ?? '').includes('pineapple'), 'the first prompt');
      await waitFor(() => r.states().slice(from).includes('busy'), 'the turn to start');
      await r.waitForReady('ready after the first turn');
      await r.host.core.api.restartAgent({ agentId: r.agent.id, resume: true });
      await r.waitForReady('ready after a restart');
      await r.record('resumed-once');
      await r.host.core.api.restartAgent({ agentId: r.agent.id, resume: true });
      await r.waitForReady('ready after a second restart in a row');
      await r.record('resumed-twice');
      await r.restartHost();
      await r.startAgent(true);
      await r.waitForReady('ready after the host restarted');
      await r.record('resumed');
      const asking = r.model.requests.length;
      r.model.enqueue({ kind: 'text', text: 'The word was pineapple.' });
      // No '?': typed as keys, Gemini CLI takes it as the key that opens its shortcuts help.
      await r.submit('say the word again');
      const asked = await modelReceives(r, 'say the word again', 60_000, asking);
      // The conversation went on: the model got the earlier turn as history.
      expect(JSON.stringify(asked.body)).toContain('remember the word pineapple');
    });
  });
}
