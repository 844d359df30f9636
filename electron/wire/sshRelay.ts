import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bridgeCommand, sshArgs, sshFailure, type Machine, type SshClient } from '../../shared/machines';

export interface SshRelay {
  /** A local socket that speaks to the machine's host: every connection to it is one ssh bridge. */
  socketPath: string;
  /** ssh's reason, in plain words, when a bridge could not connect; null while none failed. */
  failure(): string | null;
  close(): Promise<void>;
}

/**
 * Lets a client of the local socket protocol reach another machine's host unchanged: each
 * connection to the relay's socket (in a folder only this user can enter) runs
 * `ssh MACHINE drover host connect` and pipes the two together, so nothing listens on the
 * remote's network and ssh's own keys, agent and known_hosts do all the authentication.
 */
export async function openSshRelay(ssh: SshClient, machine: Pick<Machine, 'destination' | 'port' | 'hostVersion'>): Promise<SshRelay> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drover-relay-'));
  const socketPath = path.join(dir, 'relay.sock');
  let failure: string | null = null;
  const bridges = new Set<ReturnType<typeof spawn>>();
  const server = net.createServer((client) => {
    const bridge = spawn(ssh.command, [...ssh.args, ...sshArgs(machine, bridgeCommand(machine.hostVersion))], { stdio: ['pipe', 'pipe', 'pipe'] });
    bridges.add(bridge);
    let said = '';
    bridge.stderr.on('data', (chunk: Buffer) => (said = (said + chunk.toString('utf8')).slice(-16_384)));
    bridge.once('error', (error) => {
      failure = `Cannot run ${ssh.command}: ${error.message}`;
      client.destroy();
    });
    bridge.once('close', (code) => {
      bridges.delete(bridge);
      if (code === 255) failure = sshFailure(machine.destination, said);
      else if (code !== 0 && said.trim()) failure = `The Drover host on ${machine.destination} ended: ${said.trim().split('\n').slice(-3).join(' ')}`;
      client.end();
    });
    bridge.stdin.on('error', () => client.destroy());
    client.on('error', () => bridge.kill());
    client.pipe(bridge.stdin);
    // The client ends only once ssh has: its exit says whether the connection failed, and why.
    bridge.stdout.pipe(client, { end: false });
    client.once('close', () => bridge.stdin.end());
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
      for (const bridge of bridges) bridge.stdin?.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
