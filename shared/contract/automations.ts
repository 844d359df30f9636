import { z } from 'zod';
import {
  AutomationActionSchema,
  AutomationNameSchema,
  AutomationRunSchema,
  AutomationSchema,
  EVENT_TRIGGERS,
} from '../automations';
import { ProjectIdSchema } from '../entities/ids';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

const InProject = z.object({ projectId: ProjectIdSchema, name: AutomationNameSchema }).strict();

const NewTriggerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('schedule'), cron: z.string().min(1).max(200), timeZone: z.string().min(1).max(100).optional() }).strict(),
  ...EVENT_TRIGGERS,
]);
const DailyCapSchema = z.number().int().min(1).max(10_000);
const CatchUpMsSchema = z.number().int().min(0).max(7 * 86_400_000);

// Automations are the person's rules: what runs with nobody at the window is not an agent's to set.
export const AUTOMATION_METHODS = {
  addAutomation: {
    params: z
      .object({
        projectId: ProjectIdSchema,
        name: AutomationNameSchema,
        trigger: NewTriggerSchema,
        action: AutomationActionSchema,
        dailyCap: DailyCapSchema.optional(),
        catchUpMs: CatchUpMsSchema.optional(),
      })
      .strict(),
    result: AutomationSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /**
   * Changes what is given of an automation (checked as when it is added), keeping its id, state and
   * runs; a schedule's time zone, when left out, stays the one it had.
   */
  updateAutomation: {
    params: InProject.extend({
      trigger: NewTriggerSchema.optional(),
      action: AutomationActionSchema.optional(),
      dailyCap: DailyCapSchema.optional(),
      catchUpMs: CatchUpMsSchema.optional(),
    }).strict(),
    result: AutomationSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  listAutomations: {
    params: z.object({ projectId: ProjectIdSchema }).strict(),
    result: z.array(AutomationSchema),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** The automation's runs, newest first. */
  getAutomationHistory: {
    params: InProject.extend({ limit: z.number().int().min(1).max(500).optional() }),
    result: z.array(AutomationRunSchema),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** Runs it now, paused or not (still one at a time and under its daily cap); null when the guards let nothing run. */
  runAutomation: {
    params: InProject,
    result: AutomationRunSchema.nullable(),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  pauseAutomation: {
    params: InProject,
    result: AutomationSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  resumeAutomation: {
    params: InProject,
    result: AutomationSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  removeAutomation: {
    params: InProject,
    result: z.object({ name: z.string() }),
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  /** A dry run: what would run when (each schedule's next runs; the rules an event sets off, with no time). */
  getUpcomingAutomationRuns: {
    params: z.object({ projectId: ProjectIdSchema, count: z.number().int().min(1).max(50).optional() }).strict(),
    result: z.array(z.object({ name: z.string(), at: z.number().nullable(), paused: z.boolean(), trigger: z.string(), action: z.string() })),
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type AutomationMethodName = keyof typeof AUTOMATION_METHODS;
