import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { bridgeCommand, sshArgs, sshFailure, type Machine, type SshClient } from '../../shared/machines';

type BridgedMachine = Pick<Machine, 'destination' | 'port' | 'hostVersion'>;

/** One `ssh MACHINE … drover host connect`: the machine's host socket on ssh's stdin and stdout. */
export interface SshBridge {
  input: Writable;
  output: Readable;
  /** Resolves once ssh has ended, with its reason in plain words when it failed (null when it did not). */
  ended: Promise<string | null>;
  /** Ends the bridge: the remote host sees its client go, as a closed socket. */
  end(): void;
}

export function spawnSshBridge(ssh: SshClient, machine: BridgedMachine): SshBridge {
  const child = spawn(ssh.command, [...ssh.args, ...sshArgs(machine, bridgeCommand(machine.hostVersion))], { stdio: ['pipe', 'pipe', 'pipe'] });
  let said = '';
  child.stderr.on('data', (chunk: Buffer) => (said = (said + chunk.toString('utf8')).slice(-16_384)));
  child.stdin.on('error', () => child.kill());
  const ended = new Promise<string | null>((resolve) => {
    child.once('error', (error) => resolve(`Cannot run ${ssh.command}: ${error.message}`));
    child.once('close', (code) => {
      if (code === 255) resolve(sshFailure(machine.destination, said));
      else if (code !== 0 && said.trim()) resolve(`The Drover host on ${machine.destination} ended: ${said.trim().split('\n').slice(-3).join(' ')}`);
      else resolve(null);
    });
  });
  return { input: child.stdin, output: child.stdout, ended, end: () => child.stdin.end() };
}

export interface SshRelay {
  /** A local socket that speaks to the machine's host: every connection to it is one ssh bridge. */
  socketPath: string;
  /** ssh's reason, in plain words, when a bridge could not connect; null while none failed. */
  failure(): string | null;
  close(): Promise<void>;
}

/**
 * Lets a client of the local socket protocol reach another machine's host unchanged: each
 * connection to the relay's socket (in a folder only this user can enter) is one ssh bridge, so
 * nothing listens on the remote's network and ssh's own keys, agent and known_hosts do all the
 * authentication.
 */
export async function openSshRelay(ssh: SshClient, machine: BridgedMachine): Promise<SshRelay> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-relay-'));
  const socketPath = path.join(dir, 'relay.sock');
  let failure: string | null = null;
  const bridges = new Set<SshBridge>();
  const server = net.createServer((client) => {
    const bridge = spawnSshBridge(ssh, machine);
    bridges.add(bridge);
    client.on('error', () => bridge.end());
    client.pipe(bridge.input);
    // The client ends only once ssh has: its exit says whether the connection failed, and why.
    bridge.output.pipe(client, { end: false });
    void bridge.ended.then((reason) => {
      bridges.delete(bridge);
      failure = reason ?? failure;
      client.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  fs.chmodSync(socketPath, 0o600);
  return {
    socketPath,
    failure: () => failure,
    close: async () => {
      for (const bridge of bridges) bridge.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
