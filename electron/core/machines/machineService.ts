import { HostStatusSchema } from '../../../shared/host';
import { MachineSchema, remoteCliCommand, type Machine, type MachineHost, type SshLauncher } from '../../../shared/machines';
import { DroverRequestError } from '../../../shared/protocol';
import type { DefinitionTable } from '../storage/definitionTable';
import { findBundle, installRemoteHost, missingOnRemote, probeRemote, readBundle, type LocalBundle } from './remoteInstall';
import { lastWords, runRemote } from './remoteShell';

export interface MachineAddition {
  name: string;
  destination: string;
  port?: number | undefined;
}

/** The other machines a person works on, reached over their own ssh, each with this Drover's host. */
export class MachineService {
  /** Updates under way, by machine: pages and commands opening one machine at once wait for one. */
  private readonly updating = new Map<string, Promise<{ machine: Machine; installed: boolean }>>();

  constructor(
    private readonly table: DefinitionTable,
    /** How the host runs ssh; none: this core reaches no other machine. */
    private readonly launchSsh: SshLauncher | undefined,
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
    const { remoteNode, installed } = await this.install(where, bundle);
    const machine: Machine = { name, ...where, addedAt: Date.now(), hostVersion: bundle.version, remoteNode };
    // Another add of the same name may have finished while this one talked to the remote.
    if (!this.table.insert(name, JSON.stringify(machine))) this.refuseTaken(name);
    return { machine, installed };
  }

  remove(name: string): boolean {
    return this.table.remove(name);
  }

  /**
   * The machine, with this Drover's version of the host there: one added by another version (this
   * Drover was upgraded since) is checked again and gets this version installed beside the old
   * one, whose running host goes on with its work until it is restarted. A Drover built without a
   * host bundle leaves the machine as it is.
   */
  updateHost(name: string): Promise<{ machine: Machine; installed: boolean }> {
    const definition = this.table.definition(name);
    const machine = definition === undefined ? null : MachineSchema.safeParse(JSON.parse(definition)).data;
    if (!machine) return Promise.reject(new DroverRequestError('not-found', `No machine named ${name}.`));
    const bundle = findBundle(this.bundleDir);
    if (!bundle || bundle.version === machine.hostVersion) return Promise.resolve({ machine, installed: false });
    const running = this.updating.get(name);
    if (running) return running;
    const update = this.install(machine, bundle).then(({ remoteNode, installed }) => {
      const updated: Machine = { ...machine, hostVersion: bundle.version, remoteNode };
      // A machine removed while this ran stays removed.
      if (this.table.definition(name) !== undefined) this.table.save(name, JSON.stringify(updated));
      return { machine: updated, installed };
    });
    this.updating.set(name, update);
    const forget = () => this.updating.delete(name);
    update.then(forget, forget);
    return update;
  }

  /** What the host on the machine runs now, asked by this version's CLI there (which can ask a host of any protocol). */
  async hostOn(name: string): Promise<MachineHost> {
    const { machine } = await this.updateHost(name);
    const { stdout, stderr } = await runRemote(this.launcher(), machine, remoteCliCommand(machine.hostVersion, 'host status --json'));
    let told: unknown;
    try {
      told = JSON.parse(stdout);
    } catch {
      throw new DroverRequestError('internal', `${name} did not say what its Drover host runs: ${lastWords(stderr || stdout)}`);
    }
    if (typeof told === 'object' && told !== null && (told as { alive?: unknown }).alive === false) return { running: false, version: null, protocol: null, work: { agents: [], tasks: [] } };
    const status = HostStatusSchema.safeParse(told);
    if (!status.success) throw new DroverRequestError('internal', `${name} described its Drover host in a way this Drover cannot read.`);
    return { running: true, version: status.data.version, protocol: status.data.protocol, work: status.data.running };
  }

  /** Stops the host on the machine and starts this version's there, as `drover host restart` there does. */
  async restartHost(name: string): Promise<MachineHost> {
    const { machine } = await this.updateHost(name);
    const { code, stdout, stderr } = await runRemote(this.launcher(), machine, remoteCliCommand(machine.hostVersion, 'host restart --force'));
    if (code !== 0) throw new DroverRequestError('internal', `Could not restart the Drover host on ${name}: ${lastWords(stderr || stdout)}`);
    return this.hostOn(name);
  }

  private launcher(): SshLauncher {
    if (!this.launchSsh) throw new DroverRequestError('invalid-state', 'This Drover host was started without ssh: it reaches no other machines.');
    return this.launchSsh;
  }

  /** Checks what the host needs there, and installs this version unless that very build is there. */
  private async install(where: Pick<Machine, 'destination' | 'port'>, bundle: LocalBundle): Promise<{ remoteNode: string; installed: boolean }> {
    const launch = this.launcher();
    const facts = await probeRemote(launch, where, bundle.version);
    const missing = missingOnRemote(where.destination, facts, bundle);
    if (missing) throw new DroverRequestError('invalid-state', missing);
    const installed = facts.installedBuild !== bundle.buildId;
    if (installed) await installRemoteHost(launch, where, bundle);
    return { remoteNode: facts.node?.version ?? '', installed };
  }

  private refuseTaken(name: string): void {
    if (this.table.definition(name) !== undefined) throw new DroverRequestError('conflict', `A machine named ${name} is already there: remove it first or pick another name.`);
  }
}
