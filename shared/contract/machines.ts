import { z } from 'zod';
import { MachineHostSchema, MachineNameSchema, MachineSchema, SshDestinationSchema, SshPortSchema } from '../machines';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const MACHINE_METHODS = {
  listMachines: {
    params: z.object({}).strict(),
    result: z.object({ machines: z.array(MachineSchema) }),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /**
   * Reaches the destination over the person's own ssh, checks what Drover's host needs there, and
   * installs this version of it when missing; the machine is kept only once all of that worked.
   */
  addMachine: {
    params: z.object({ name: MachineNameSchema, destination: SshDestinationSchema, port: SshPortSchema.optional() }).strict(),
    result: z.object({ machine: MachineSchema, installed: z.boolean() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /**
   * The machine, with this Drover's version of its host there: when it was added by another
   * version, the remote is checked again and this version installed (what a page or a command on
   * the machine calls before it connects).
   */
  updateMachineHost: {
    params: z.object({ name: MachineNameSchema }).strict(),
    result: z.object({ machine: MachineSchema, installed: z.boolean() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** What the host on the machine runs now, and which Drover it is (asked there by this version's CLI). */
  getMachineHost: {
    params: z.object({ name: MachineNameSchema }).strict(),
    result: z.object({ host: MachineHostSchema }),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /**
   * Stops the host on the machine and starts this version's there: its agents stop and its running
   * tasks end interrupted, as `drover host restart` there does. For a host a page cannot speak to.
   */
  restartMachineHost: {
    params: z.object({ name: MachineNameSchema }).strict(),
    result: z.object({ host: MachineHostSchema }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  removeMachine: {
    params: z.object({ name: MachineNameSchema }).strict(),
    result: z.object({ name: MachineNameSchema, removed: z.boolean() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type MachineMethodName = keyof typeof MACHINE_METHODS;
