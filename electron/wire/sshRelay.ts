import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bridgeCommand, sshFailure, type Machine, type SshLauncher } from '../../shared/machines';

type BridgedMachine = Pick<Machine, 'destination' | 'port' | 'hostVersion'>;

/** One `ssh MACHINE … drover host connect`: the machine's host socket on ssh's stdin and stdout. */
export interface SshBridge {
  input: NodeJS.WritableStream;
  output: NodeJS.ReadableStream;
  /** Resolves once ssh has ended, with its reason in plain words when it failed (null when it did not). */
  ended: Promise<string | null>;
  /** Ends the bridge: the remote host sees its client go, as a closed socket. */
  end(): void;
}

export function spawnSshBridge(launch: SshLauncher, machine: BridgedMachine): SshBridge {
  const ssh = launch(machine, bridgeCommand(machine.hostVersion));
  const ended = ssh.ended.then((end) => {
    if ('notRun' in end) return end.notRun;
    if (end.code === 255) return sshFailure(machine.destination, end.stderr);
    if (end.code !== 0 && end.stderr.trim()) return `The Drover host on ${machine.destination} ended: ${end.stderr.trim().split('\n').slice(-3).join(' ')}`;
    return null;
  });
  return { input: ssh.stdin, output: ssh.stdout, ended, end: () => ssh.stdin.end() };
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
export async function openSshRelay(launch: SshLauncher, machine: BridgedMachine): Promise<SshRelay> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-relay-'));
  const socketPath = path.join(dir, 'relay.sock');
  let failure: string | null = null;
  const bridges = new Set<SshBridge>();
  const server = net.createServer((client) => {
    const bridge = spawnSshBridge(launch, machine);
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
