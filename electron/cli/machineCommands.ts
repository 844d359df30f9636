import { MachineNameSchema, portFromText, type Machine } from '../../shared/machines';
import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import type { CliContext } from './taskCommands';
import { quoted } from './terminalText';
import { UsageError } from './usage';
import { table } from './worktreeCommands';

function destinationOf(machine: Machine): string {
  return machine.port ? `${machine.destination}:${machine.port}` : machine.destination;
}

function parsePort(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const port = portFromText(given);
  if (port === null) throw new UsageError(`-p needs a port number from 1 to 65535, not ${quoted(given)}.`);
  return port;
}

/** `drover machine add NAME DESTINATION [-p PORT] | list [--json] | remove NAME`. */
export async function machineCommand(args: string[], context: CliContext): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseCommandArgs(`drover machine ${sub ?? ''}`.trim(), rest, { port: { type: 'string', short: 'p' }, json: { type: 'boolean', default: false } }, true);
  if (sub !== 'add' && sub !== 'list' && sub !== 'remove') throw new UsageError(sub ? `Unknown machine command: ${sub}` : 'drover machine needs a command: add, list or remove');
  const client = await connectToDrover(context.socketPath);
  try {
    if (sub === 'list') {
      const { machines } = await client.rpc.call('listMachines', {});
      if (values.json) context.out(`${JSON.stringify(machines, null, 2)}\n`);
      else if (machines.length === 0) context.out('No machines yet: drover machine add NAME user@host\n');
      else context.out(`${table([['NAME', 'DESTINATION', 'DROVER', 'NODE'], ...machines.map((m) => [m.name, destinationOf(m), m.hostVersion, m.remoteNode])])}\n`);
      return 0;
    }
    const [name, destination, extra] = positionals;
    if (!name || !MachineNameSchema.safeParse(name).success) throw new UsageError(`drover machine ${sub} needs a machine name (lowercase letters, digits, . _ -)${name ? `, not ${quoted(name)}` : ''}.`);
    if (sub === 'remove') {
      if (destination !== undefined) throw new UsageError('drover machine remove takes one name');
      const { removed } = await client.rpc.call('removeMachine', { name });
      context.out(removed ? `Removed machine ${name}. Drover's host there keeps running; stop it there with drover host stop.\n` : `No machine named ${name}.\n`);
      return removed ? 0 : 1;
    }
    if (!destination || extra !== undefined) throw new UsageError('drover machine add takes a name and an SSH destination: drover machine add box me@box.example.com [-p 2222]');
    const port = parsePort(values.port);
    context.err(`Connecting to ${destination} over ssh and checking Drover's host there…\n`);
    const { machine, installed } = await client.rpc.call('addMachine', { name, destination, ...(port ? { port } : {}) });
    context.out(`Added machine ${machine.name} (${quoted(destinationOf(machine))}, Node ${quoted(machine.remoteNode)}): Drover ${quoted(machine.hostVersion)} ${installed ? 'installed there' : 'was already there'}.\n`);
    return 0;
  } finally {
    client.close();
  }
}
