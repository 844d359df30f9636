import { z } from 'zod';
import { HostHelloParamsSchema, HostHelloSchema, HostStatusSchema, OpenWebDoorParamsSchema, RunningWorkSchema, WebDoorSchema } from '../host';

/**
 * The methods the host answers itself rather than the core: who it is, what it runs, stopping it,
 * and opening the browser door. `stopHost` and `openWebDoor` are for the local socket only (the
 * person's own commands and the desktop window), never for a page.
 */
export const HOST_METHODS = {
  /** The first call of a client: both sides say which protocol they speak (see shared/host.ts). */
  hostHello: {
    params: HostHelloParamsSchema,
    result: HostHelloSchema,
  },
  getHostStatus: {
    params: z.object({}).strict(),
    result: HostStatusSchema,
  },
  /**
   * Stops the host as a quit did before the host outlived its windows: agents stop, running tasks
   * end interrupted. Answers with what it stops, then closes every connection and exits.
   */
  stopHost: {
    params: z.object({}).strict(),
    result: z.object({ stopped: RunningWorkSchema }),
  },
  /** Opens the browser door for as long as the asking connection stays (one per `drover serve`). */
  openWebDoor: {
    params: OpenWebDoorParamsSchema,
    result: WebDoorSchema,
  },
} as const;

export type HostMethodName = keyof typeof HOST_METHODS;
export const HOST_METHOD_NAMES = Object.keys(HOST_METHODS) as HostMethodName[];
export const SOCKET_ONLY_METHODS: ReadonlySet<string> = new Set<HostMethodName>(['stopHost', 'openWebDoor']);
