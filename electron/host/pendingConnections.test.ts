import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/waitFor';
import { PendingConnections, type PendingLimits } from './pendingConnections';

describe('connections of a door on their way in', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  /** A server whose every connection is pending until the test says otherwise, and clients of it. */
  async function door(limits: PendingLimits) {
    const pending = new PendingConnections(limits);
    const accepted: net.Socket[] = [];
    const server = net.createServer((socket) => {
      accepted.push(socket);
      pending.admit(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const clients: { socket: net.Socket; closed: boolean }[] = [];
    const connect = async () => {
      const client = { socket: net.connect(port, '127.0.0.1'), closed: false };
      client.socket.on('close', () => (client.closed = true));
      client.socket.on('error', () => undefined);
      clients.push(client);
      const count = accepted.length;
      await waitFor(() => accepted.length > count, 'the door to accept it');
      return { client, served: accepted[accepted.length - 1] as net.Socket };
    };
    cleanups.push(() => {
      clients.forEach(({ socket }) => socket.destroy());
      pending.dropAll();
      server.close();
    });
    return { pending, connect };
  }

  it('keeps at most so many, the oldest going first, and never one the door let in', async () => {
    const { pending, connect } = await door({ maxPending: 3, withinMs: 60_000, maxHandshakeBytes: 100 });
    const page = await connect();
    pending.letIn(page.served);
    const idle = [await connect(), await connect(), await connect()];
    await connect();
    await waitFor(() => idle[0]?.client.closed, 'the oldest idle connection to go');
    expect(idle.map(({ client }) => client.closed)).toEqual([true, false, false]);
    expect(page.client.closed).toBe(false);
  });

  it('ends one that waits too long for its request, unless its request is being answered', async () => {
    const { pending, connect } = await door({ maxPending: 10, withinMs: 200, maxHandshakeBytes: 100 });
    const idle = await connect();
    const downloading = await connect();
    pending.answering(downloading.served);
    await waitFor(() => idle.client.closed, 'the idle connection to be ended');
    expect(downloading.client.closed).toBe(false);
    pending.answered(downloading.served);
    await waitFor(() => downloading.client.closed, 'the connection to be ended once it idles after its answer');
  });

  it('ends a WebSocket that sends more than a handshake before it is let in, and counts nothing after', async () => {
    const { pending, connect } = await door({ maxPending: 10, withinMs: 60_000, maxHandshakeBytes: 100 });
    const talker = await connect();
    pending.upgraded(talker.served);
    talker.client.socket.write(Buffer.alloc(101));
    await waitFor(() => talker.client.closed, 'the talker to be ended');
    const page = await connect();
    pending.upgraded(page.served);
    page.client.socket.write(Buffer.alloc(60));
    await waitFor(() => page.served.bytesRead === 60, 'the handshake to arrive');
    pending.letIn(page.served);
    page.client.socket.write(Buffer.alloc(1000));
    await waitFor(() => page.served.bytesRead === 1060, 'what the page sends once let in');
    expect(page.client.closed).toBe(false);
  });
});
