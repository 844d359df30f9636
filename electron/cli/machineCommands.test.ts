import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteHostDir } from '../../shared/machines';
import { endDroverProcessesIn, runCli } from '../../test-support/droverProcess';
import { CAN_RUN_SSHD, startSshRemote, type SshRemote } from '../../test-support/sshServer';
import { makeTempDir, removeDir } from '../../test-support/tempDir';
import { waitFor } from '../../test-support/waitFor';

/** This Drover's version: the host folder it installs on a machine is named after it. */
const VERSION = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

describe.skipIf(!CAN_RUN_SSHD)('drover machine: another machine over the real OpenSSH, its host installed and reached through ssh', () => {
  let remote: SshRemote;
  let dir: string;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const drover = (...args: string[]) => runCli(['--data-dir', dataDir, ...args], { env, cwd: dir });

  beforeAll(async () => {
    remote = await startSshRemote();
    dir = makeTempDir();
    dataDir = path.join(dir, 'data');
    env = { ...process.env, DROVER_SOCKET: '', DROVER_SSH_COMMAND: remote.sshCommand };
    const started = await drover('host', 'start');
    expect(started.code, started.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await endDroverProcessesIn(dir);
    await remote?.stop();
    removeDir(dir);
  }, 60_000);

  it('adds a machine: installs this version of the host there whole and private, once', async () => {
    const added = await drover('machine', 'add', 'box', remote.alias);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^Added machine box \(remote, Node 20\.[\d.]+\): Drover 0\.\d+\.\d+ installed there\.\n$/);
    const installedDir = path.join(remote.home, remoteHostDir(VERSION));
    expect(fs.readFileSync(path.join(installedDir, 'build-id'), 'utf8')).toBe(fs.readFileSync('dist/remote-host/build-id', 'utf8'));
    expect(fs.statSync(installedDir).mode & 0o077).toBe(0);
    expect(fs.readdirSync(path.dirname(installedDir)).filter((entry) => entry.startsWith('.host-'))).toEqual([]);

    const again = await drover('machine', 'add', 'box', remote.alias);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('A machine named box is already there');
    const second = await drover('machine', 'add', 'box-2', remote.alias);
    expect(second.stdout).toContain('Drover 0.1.0 was already there');

    const listed = JSON.parse((await drover('machine', 'list', '--json')).stdout) as { name: string; destination: string }[];
    expect(listed.map((machine) => [machine.name, machine.destination])).toEqual([['box', 'remote'], ['box-2', 'remote']]);
    expect((await drover('machine', 'remove', 'box-2')).stdout).toContain('Removed machine box-2');
    expect((await drover('machine', 'list')).stdout).not.toContain('box-2');
  }, 90_000);

  it('runs a task on the machine, as its user, in a project there, through a host only that user can reach', async () => {
    remote.ssh('mkdir -p app && cd app && git init -q');
    const app = path.join(remote.home, 'app');
    const project = await drover('--machine', 'box', 'project', 'add', app);
    expect(project.code, project.stderr).toBe(0);
    expect(project.stdout).toContain(`at ${app} on box`);
    // The local Drover has no such project: it lives in the remote's host.
    expect((await drover('project', 'list')).stdout).not.toContain(app);

    const run = await drover('--machine', 'box', 'task', 'run', '--project', app, '--json', '--', 'sh', '-c', 'echo "ran as $(id -un) in $(pwd)"');
    expect(run.code, run.stderr).toBe(0);
    const taskId = (JSON.parse(run.stdout) as { id: string }).id;
    const logs = await drover('--machine', 'box', 'task', 'logs', taskId, '--follow');
    expect(logs.stdout).toContain(`ran as ${remote.user} in ${app}`);
    expect(logs.code, logs.stderr).toBe(0);

    // The remote host is its user's: its socket 0600 in a 0700 folder, and no TCP port of its.
    const socket = path.join(remote.home, '.config', 'Drover', 'drover.sock');
    await waitFor(() => fs.existsSync(socket), 'the remote host socket');
    expect(fs.statSync(socket).uid).not.toBe(0);
    expect(fs.statSync(socket).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(socket)).mode & 0o777).toBe(0o700);
  }, 90_000);

  it('installs this version of the host on a machine that an older Drover added, before a command reaches it', async () => {
    // As an older Drover left it: its own host folder there, its version in the record.
    remote.ssh(`mv ${remoteHostDir(VERSION)} ${remoteHostDir('0.0.1')}`);
    const db = new Database(path.join(dataDir, 'app.sqlite'));
    try {
      const row = db.prepare<[], { definition: string }>("SELECT definition FROM machines WHERE name = 'box'").get();
      db.prepare("UPDATE machines SET definition = ? WHERE name = 'box'").run(JSON.stringify({ ...JSON.parse(row?.definition ?? '{}'), hostVersion: '0.0.1' }));
    } finally {
      db.close();
    }
    const hostVersion = async () => (JSON.parse((await drover('machine', 'list', '--json')).stdout) as { name: string; hostVersion: string }[]).find((machine) => machine.name === 'box')?.hostVersion;
    expect(await hostVersion()).toBe('0.0.1');

    const listed = await drover('--machine', 'box', 'project', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(fs.readFileSync(path.join(remote.home, remoteHostDir(VERSION), 'build-id'), 'utf8')).toBe(fs.readFileSync('dist/remote-host/build-id', 'utf8'));
    expect(fs.existsSync(path.join(remote.home, remoteHostDir('0.0.1')))).toBe(true);
    expect(await hostVersion()).toBe(VERSION);
  }, 90_000);

  it('says in plain words why a machine cannot be reached, from the host adding it and from a command on it', async () => {
    const closedPort = (await runCli(['--data-dir', dataDir, 'machine', 'add', 'closed', remote.alias, '-p', '1'], { env, cwd: dir }));
    expect(closedPort.code).toBe(2);
    expect(closedPort.stderr).toContain('Cannot connect to remote: nothing accepts SSH connections on that port.');
    expect((await drover('machine', 'list')).stdout).not.toContain('closed');

    const cases = [
      ['unknown-host-key', 'its host key is not in your known_hosts'],
      ['refused-key', 'it refused the login'],
      ['closed-port', 'nothing accepts SSH connections on that port'],
    ] as const;
    for (const [kind, reason] of cases) {
      const failed = await runCli(['--data-dir', dataDir, '--machine', 'box', 'task', 'list', '--project', '/srv'], { env: { ...env, DROVER_SSH_COMMAND: remote.variant(kind) }, cwd: dir });
      expect(failed.code, kind).toBe(1);
      expect(failed.stderr, kind).toContain(`Cannot connect to remote: ${reason}`);
      expect(failed.stderr, kind).toContain('(ssh: ');
    }
  }, 60_000);

  it('refuses a destination that ssh would read as an option, an unknown machine, and --machine where it means nothing', async () => {
    const option = await drover('machine', 'add', 'evil', '-oProxyCommand=touch /tmp/pwned');
    expect(option.code).toBe(2);
    const unknown = await drover('--machine', 'nope', 'task', 'list', '--project', '/srv');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No machine named nope (machines: box)');
    const host = await drover('--machine', 'box', 'host', 'status');
    expect(host.code).toBe(2);
    expect(host.stderr).toContain('does not take --machine');
    const relative = await drover('--machine', 'box', 'task', 'list', '--project', 'app');
    expect(relative.stderr).toContain('give the folder\'s absolute path on box');
  }, 60_000);

  it("gives the machine's host none of the person's forwardings, whatever their ssh config asks for", async () => {
    // A person's config for a dev box: their ssh agent forwarded, a terminal forced, a command of its own.
    const agentSocket = path.join(dir, 'agent.sock');
    const agent = spawn('ssh-agent', ['-D', '-a', agentSocket], { stdio: 'ignore' });
    try {
      await waitFor(() => fs.existsSync(agentSocket), 'the ssh agent');
      const config = path.join(dir, 'forwarding_config');
      const theirs = fs.readFileSync(remote.sshConfig, 'utf8').replace('IdentityAgent none', `IdentityAgent ${agentSocket}`);
      fs.writeFileSync(config, `${theirs}  ForwardAgent yes\n  RequestTTY force\n  RemoteCommand echo from the config\n`, { mode: 0o600 });
      const forwarding = { ...env, DROVER_SSH_COMMAND: `ssh -F ${config}` };
      // The host there starts afresh from a bridge of that config (through a terminal, or running the
      // config's command, the bridge would not work at all), and its tasks get its environment.
      remote.ssh(`node ${remoteHostDir(VERSION)}/cli.js host stop --force`);
      const app = path.join(remote.home, 'app');
      const run = await runCli(['--data-dir', dataDir, '--machine', 'box', 'task', 'run', '--project', app, '--json', '--', 'sh', '-c', 'echo "agent=[${SSH_AUTH_SOCK:-}]"'], { env: forwarding, cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const logs = await runCli(['--data-dir', dataDir, '--machine', 'box', 'task', 'logs', (JSON.parse(run.stdout) as { id: string }).id, '--follow'], { env: forwarding, cwd: dir });
      expect(logs.code, logs.stderr).toBe(0);
      expect(logs.stdout).toContain('agent=[]');
    } finally {
      agent.kill();
    }
  }, 60_000);
});
