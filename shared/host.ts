import { z } from 'zod';
import { AgentIdSchema, ProjectIdSchema, TaskIdSchema } from './entities/ids';
import { AgentSessionStateSchema } from './entities/sessions';
import { TaskStateSchema } from './entities/tasks';

/**
 * The version of the frames and methods a client and the host speak. A client meeting a host of
 * another protocol says so and offers to restart the host; `hostHello` itself never changes shape,
 * so any two versions can tell each other that much.
 */
export const PROTOCOL_VERSION = 4;

/** Loose on purpose: a newer client may say more, an older host must still answer. */
export const HostHelloParamsSchema = z.looseObject({
  protocol: z.number().int().nonnegative(),
  version: z.string().max(100),
  /** Who connects, for the host's log: `window`, `serve`, `cli`, `mcp`, `page`. */
  client: z.string().max(40),
});

export const HostHelloSchema = z.looseObject({
  protocol: z.number().int().nonnegative(),
  version: z.string(),
  pid: z.number().int().positive(),
  /** The host's own built UI, which a window of another version shows until the host restarts. */
  rendererDir: z.string().nullable(),
});
export type HostHello = z.infer<typeof HostHelloSchema>;

/** Agents and tasks a stop would end, named so a person knows what they stop. */
export const RunningWorkSchema = z.object({
  agents: z.array(z.object({ projectId: ProjectIdSchema, projectName: z.string(), agentId: AgentIdSchema, name: z.string(), state: AgentSessionStateSchema })),
  tasks: z.array(z.object({ projectId: ProjectIdSchema, projectName: z.string(), taskId: TaskIdSchema, name: z.string(), state: TaskStateSchema })),
});
export type RunningWork = z.infer<typeof RunningWorkSchema>;

export const HostStatusSchema = z.object({
  pid: z.number().int().positive(),
  version: z.string(),
  protocol: z.number().int().nonnegative(),
  startedAt: z.number().int(),
  dataDir: z.string(),
  socketPath: z.string(),
  logFile: z.string(),
  /** Connections open now, the asking one included. */
  clients: z.number().int().nonnegative(),
  /** Browser doors open now (one per `drover serve`). */
  webDoors: z.array(z.object({ url: z.string() })),
  running: RunningWorkSchema,
});
export type HostStatus = z.infer<typeof HostStatusSchema>;

export const OpenWebDoorParamsSchema = z
  .object({
    host: z.string().trim().min(1).max(255),
    /** 0: the port this data dir last served on, if it is free, else any free one. */
    port: z.number().int().min(0).max(65535),
    allowOrigins: z.array(z.string().max(300)).max(50).default([]),
    /** A fresh browser token: pages holding the old one are locked out. */
    newToken: z.boolean().default(false),
    /**
     * When `port` is taken, open on a free one with a new token, as `port: 0` does when the last
     * port is taken: serve reopening its door after the host came back, on a port the person did
     * not choose.
     */
    moveIfTaken: z.boolean().default(false),
  })
  .strict();
export const WebDoorSchema = z.object({
  url: z.string(),
  port: z.number().int().positive(),
  /** The port it meant to reopen on (`--port 0`, or `moveIfTaken`), held by another program: it opened on `port` with a new token. */
  movedFrom: z.number().int().positive().nullable(),
});
export type WebDoor = z.infer<typeof WebDoorSchema>;
