import { z } from 'zod';

/** Ids are opaque strings minted by the core; the prefix only helps people reading logs. */
export const TASK_ID = /^t-[a-z0-9]{6,32}$/;
export const PROJECT_ID = /^p-[a-z0-9]{6,32}$/;
export const ProjectIdSchema = z.string().regex(PROJECT_ID, 'not a project id');
export const TaskIdSchema = z.string().regex(TASK_ID, 'not a task id');
export const AgentIdSchema = z.string().regex(/^a-[a-z0-9]{6,32}$/, 'not an agent id');
export const ProfileIdSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'a profile id is lowercase letters, digits and dashes');

/** Milliseconds since the Unix epoch. */
export const Timestamp = z.number().int().nonnegative();
