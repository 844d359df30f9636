import { z } from 'zod';
import { HostHelloParamsSchema, HostHelloSchema, HostStatusSchema, OpenWebDoorParamsSchema, RunningWorkSchema, WebDoorSchema } from '../host';
import { EVERY_DOOR, type HostMethodTable } from './methodFacts';

/**
 * The methods the host answers itself rather than the core: who it is, what it runs, stopping it,
 * and opening the browser door. `stopHost` and `openWebDoor` are for the local socket only (the
 * person's own commands and the desktop window), never for a page; an agent may only greet.
 */
export const HOST_METHODS = {
  /** The first call of a client: both sides say which protocol they speak (see shared/host.ts). */
  hostHello: {
    params: HostHelloParamsSchema,
    result: HostHelloSchema,
    kind: 'connection',
    doors: EVERY_DOOR,
    agents: 'allowed',
  },
  getHostStatus: {
    params: z.object({}).strict(),
    result: HostStatusSchema,
    kind: 'reads',
    doors: ['socket', 'web'],
    // The host's status, its doors and stopping it are the person's.
    agents: 'refused',
  },
  /**
   * Stops the host as a quit did before the host outlived its windows: agents stop, running tasks
   * end interrupted. Answers with what it stops, then closes every connection and exits.
   */
  stopHost: {
    params: z.object({}).strict(),
    result: z.object({ stopped: RunningWorkSchema }),
    kind: 'changes',
    doors: ['socket'],
    // The host's status, its doors and stopping it are the person's.
    agents: 'refused',
  },
  /** Opens the browser door for as long as the asking connection stays (one per `drover serve`). */
  openWebDoor: {
    params: OpenWebDoorParamsSchema,
    result: WebDoorSchema,
    kind: 'connection',
    doors: ['socket'],
    // The host's status, its doors and stopping it are the person's.
    agents: 'refused',
  },
} as const satisfies HostMethodTable;

export type HostMethodName = keyof typeof HOST_METHODS;
export const HOST_METHOD_NAMES = Object.keys(HOST_METHODS) as HostMethodName[];
