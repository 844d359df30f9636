import { describe, expect, it } from 'vitest';
import { bridgeCommand, portFromText, posixCommand, SshDestinationSchema, sshArgs, sshClientFrom, sshFailure } from './machines';

describe('machines: how Drover calls ssh and reads its failures', () => {
  it('ends ssh options before the destination, and refuses a destination ssh would read as an option', () => {
    expect(sshArgs({ destination: 'me@box', port: 2222 }, 'true').slice(-5)).toEqual(['-p', '2222', '--', 'me@box', 'true']);
    expect(sshArgs({ destination: 'box', port: null }, 'true').slice(-3)).toEqual(['--', 'box', 'true']);
    expect(sshArgs({ destination: 'box', port: null }, 'true')).toEqual(expect.arrayContaining(['BatchMode=yes', '-a', '-x', '-T', 'ClearAllForwardings=yes', 'RemoteCommand=none']));
    expect(SshDestinationSchema.safeParse('-oProxyCommand=touch /tmp/x').success).toBe(false);
    expect(SshDestinationSchema.safeParse('me@box -p 1').success).toBe(false);
    expect(SshDestinationSchema.safeParse('me@box.example.com').success).toBe(true);
    expect(SshDestinationSchema.safeParse('me@[fe80::1%eth0]').success).toBe(true);
    for (const shellish of ['box;touch /tmp/x', 'box$(id)', 'box`id`', 'box|id', "box'"]) expect(SshDestinationSchema.safeParse(shellish).success, shellish).toBe(false);
  });

  it('reads a port as typed, and nothing else as one', () => {
    expect(portFromText(' 2222 ')).toBe(2222);
    for (const text of ['0x10', '1e3', '0', '70000', '22.5', '', 'ssh']) expect(portFromText(text), text).toBeNull();
  });

  it('quotes a script for any login shell, quotes included', () => {
    expect(posixCommand(`echo 'a b'`)).toBe(`sh -c 'echo '\\''a b'\\'''`);
    expect(bridgeCommand('1.2.3')).toBe(`sh -c 'exec node "$HOME/.local/share/drover/host-1.2.3/cli.js" host connect'`);
    expect(() => posixCommand('echo a\necho b')).toThrow('one line');
  });

  it('takes another ssh client, or options, from DROVER_SSH_COMMAND', () => {
    expect(sshClientFrom({})).toEqual({ command: 'ssh', args: [] });
    expect(sshClientFrom({ DROVER_SSH_COMMAND: ' ssh  -F /tmp/cfg ' })).toEqual({ command: 'ssh', args: ['-F', '/tmp/cfg'] });
  });

  it("names ssh's reason in plain words and keeps its own last lines", () => {
    expect(sshFailure('box', "Warning: Permanently added 'box' to the list of known hosts.\nme@box: Permission denied (publickey).\n")).toBe(
      'Cannot connect to box: it refused the login: no key of yours (or your ssh agent) is accepted there for that user. (ssh: me@box: Permission denied (publickey).)',
    );
    expect(sshFailure('box', 'ssh: Could not resolve hostname box: Name or service not known')).toContain('that host name cannot be resolved');
    expect(sshFailure('box', '')).toBe('Cannot connect to box: ssh could not connect.');
    expect(sshFailure('box', 'Timeout, server box not responding.')).toBe('Cannot connect to box: it stopped answering: the network to it, or the machine, went away. (ssh: Timeout, server box not responding.)');
    expect(sshFailure('box', 'Connection to 10.0.0.7 closed by remote host.')).toContain('Cannot connect to box: the connection to it was lost.');
    expect(sshFailure('box', 'client_loop: send disconnect: Broken pipe')).toContain('the connection to it was lost.');
  });
});
