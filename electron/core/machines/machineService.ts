import { MachineSchema, type Machine, type SshClient } from '../../../shared/machines';
import { DroverRequestError } from '../../../shared/protocol';
import type { DefinitionTable } from '../storage/definitionTable';
import { installRemoteHost, missingOnRemote, probeRemote, readBundle } from './remoteInstall';

export interface MachineAddition {
  name: string;
  destination: string;
  port?: number | undefined;
}

/** The other machines a person works on, reached over their own ssh, each with this Drover's host. */
export class MachineService {
  constructor(
    private readonly table: DefinitionTable,
    private readonly ssh: SshClient,
    /** dist/remote-host of this Drover, when it was built with one. */
    private readonly bundleDir: string | undefined,
  ) {}

  list(): Machine[] {
    return this.table.definitions().flatMap((definition) => {
      const parsed = MachineSchema.safeParse(JSON.parse(definition));
      return parsed.success ? [parsed.data] : [];
    });
  }

  async add({ name, destination, port }: MachineAddition): Promise<{ machine: Machine; installed: boolean }> {
    this.refuseTaken(name);
    const bundle = readBundle(this.bundleDir);
    const where = { destination, port: port ?? null };
    const facts = await probeRemote(this.ssh, where, bundle.version);
    const missing = missingOnRemote(destination, facts, bundle);
    if (missing) throw new DroverRequestError('invalid-state', missing);
    const installed = facts.installedBuild !== bundle.buildId;
    if (installed) await installRemoteHost(this.ssh, where, bundle);
    const machine: Machine = { name, ...where, addedAt: Date.now(), hostVersion: bundle.version, remoteNode: facts.node?.version ?? '' };
    // Another add of the same name may have finished while this one talked to the remote.
    if (!this.table.insert(name, JSON.stringify(machine))) this.refuseTaken(name);
    return { machine, installed };
  }

  remove(name: string): boolean {
    return this.table.remove(name);
  }

  private refuseTaken(name: string): void {
    if (this.table.definition(name) !== undefined) throw new DroverRequestError('conflict', `A machine named ${name} is already there: remove it first or pick another name.`);
  }
}
