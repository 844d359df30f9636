import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../../../test-support/tempDir';
import { waitFor } from '../../../test-support/waitFor';
import { PROJECT_MIGRATIONS } from '../storage/projectSchema';
import { SeqCounter } from '../storage/seqCounter';
import { openDatabase, type SqliteDatabase } from '../storage/sqlite';
import { isProcessGroupAlive, readProcessStartTime } from '../process/processGroup';
import { reconcileTasks, liveProcessTable, type ProcessTable } from './reconcile';
import { TaskStore } from '../storage/taskStore';

/** A process's state letter (field 3 of /proc/PID/stat), and its group (field 5). */
function statOf(pid: number): { state: string; group: number } | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return { state: fields[0] ?? '', group: Number(fields[2]) };
  } catch {
    return null;
  }
}
const stateOf = (pid: number) => statOf(pid)?.state;
/** The processes of a group that are not zombies. */
function liveMembers(group: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const stat = statOf(pid);
      return stat !== null && stat.group === group && stat.state !== 'Z';
    });
}

describe('reconcileTasks', () => {
  let dir: string;
  let db: SqliteDatabase;
  let store: TaskStore;
  let seq: SeqCounter;
  let n = 0;

  const add = (state: string, change: Record<string, unknown> = {}) => {
    const id = `t-test${String(++n).padStart(4, '0')}`;
    store.insert({ id, ownerAgentId: null, label: null, command: 'x', cwd: dir, attempt: 1, retryOf: null, createdAt: n, logPath: path.join(dir, `${id}.log`) });
    if (state !== 'queued') store.update(id, { state: state as never, ...change });
    return id;
  };
  const fakeProcesses = (alive: Record<number, string>): ProcessTable & { killed: number[] } => {
    const killed: number[] = [];
    return {
      killed,
      livePids: () => Object.keys(alive).map(Number),
      namesSameProcess: (pid, startTime) => alive[pid] !== undefined && alive[pid] === startTime,
      killGroup: (pid) => killed.push(pid),
    };
  };

  beforeEach(() => {
    dir = makeTempDir();
    db = openDatabase(path.join(dir, 'state.sqlite'), { migrations: PROJECT_MIGRATIONS, description: 'test' });
    seq = new SeqCounter(0);
    store = new TaskStore(db, 'p-test00', seq);
  });
  afterEach(() => {
    db.close();
    removeDir(dir);
  });

  it('interrupts running tasks, finishes cancelling ones, keeps queued and finished ones', () => {
    // Tasks that stay as they are lie between the stranded ones, as they do in a real store.
    const running = add('running', { pid: 101, pidStartTime: '5' });
    const queued = add('queued');
    const done = add('succeeded', { exitCode: 0 });
    const cancelling = add('cancelling', { pid: 102, pidStartTime: '6', reason: 'cancelled by request' });
    const processes = fakeProcesses({});
    const { report, changed } = reconcileTasks(store, processes, 1234);
    expect(report).toEqual({ projectId: 'p-test00', interrupted: 1, cancelled: 1, killed: 0, queued: 1 });
    expect(store.get(running)).toMatchObject({ state: 'interrupted', reason: 'app-restart', endedAt: 1234 });
    expect(store.get(cancelling)).toMatchObject({ state: 'cancelled', reason: 'cancelled by request' });
    expect(store.get(queued)?.state).toBe('queued');
    expect(store.get(done)?.state).toBe('succeeded');
    expect([...changed].map((task) => task.id)).toEqual([running, cancelling]);
    expect([...changed]).toEqual([store.get(running), store.get(cancelling)]);
  });

  it('kills a surviving group only when pid and start time still match', () => {
    add('running', { pid: 201, pidStartTime: '77' });
    add('running', { pid: 202, pidStartTime: '78' });
    const processes = fakeProcesses({ 201: '77', 202: '999' });
    expect(reconcileTasks(store, processes).report.killed).toBe(1);
    expect(processes.killed).toEqual([201]);
  });

  it('changes nothing when run a second time', () => {
    add('running', { pid: 301, pidStartTime: '1' });
    add('queued');
    reconcileTasks(store, fakeProcesses({}));
    const seqBefore = seq.current;
    const before = [...(store.newestFirst() ?? [])];
    const again = reconcileTasks(store, fakeProcesses({ 301: '1' }));
    expect([...again.changed]).toEqual([]);
    expect(again.report).toMatchObject({ interrupted: 0, cancelled: 0, killed: 0, queued: 1 });
    expect([...(store.newestFirst() ?? [])]).toEqual(before);
    expect(seq.current).toBe(seqBefore);
  });

  it('kills a real surviving process group that is still ours', async () => {
    const child = spawn('/bin/sh', ['-c', 'sleep 60 & sleep 60'], { detached: true, stdio: 'ignore' });
    const pid = child.pid as number;
    await waitFor(() => readProcessStartTime(pid), 'child to start');
    add('running', { pid, pidStartTime: readProcessStartTime(pid) });
    expect(reconcileTasks(store, liveProcessTable()).report.killed).toBe(1);
    await waitFor(() => !isProcessGroupAlive(pid), 'group to die');
  });

  it('kills the group of a leader that died but was not reaped yet, whose members live on', async () => {
    // perl forks a group leader that starts a member and exits; perl never reaps it, so it stays a zombie.
    const parent = spawn('perl', ['-e', '$| = 1; my $pid = fork(); if ($pid == 0) { setpgrp(0, 0); system("sleep 60 &"); exit 0 } print "$pid\n"; sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const leader = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
    try {
      await waitFor(() => stateOf(leader) === 'Z' && liveMembers(leader).length > 0, 'a zombie leader with a live member');
      add('running', { pid: leader, pidStartTime: readProcessStartTime(leader) });
      expect(reconcileTasks(store, liveProcessTable()).report.killed).toBe(1);
      await waitFor(() => liveMembers(leader).length === 0, 'the member to die');
    } finally {
      parent.kill('SIGKILL');
      try {
        process.kill(-leader, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
  });
});
