import { z } from 'zod';
import { AppSettingsSchema, AppSettingsSnapshotSchema } from '../appSettings';
import { EVERY_DOOR, type MethodTable } from './methodFacts';

export const APP_SETTINGS_METHODS = {
  getAppSettings: {
    params: z.object({}).strict(),
    result: AppSettingsSnapshotSchema,
    kind: 'reads',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
  updateAppSettings: {
    // Paused accounts change through pauseAgentAccount and resumeAccount only.
    params: z.object({ settings: AppSettingsSchema.omit({ pausedAccounts: true }).partial().strict() }).strict(),
    result: AppSettingsSnapshotSchema,
    kind: 'changes',
    doors: EVERY_DOOR,
    agents: 'refused',
  },
} as const satisfies MethodTable;

export type AppSettingsMethodName = keyof typeof APP_SETTINGS_METHODS;
