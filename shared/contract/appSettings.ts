import { z } from 'zod';
import { AppSettingsSchema, AppSettingsSnapshotSchema } from '../appSettings';

export const APP_SETTINGS_METHODS = {
  getAppSettings: {
    params: z.object({}).strict(),
    result: AppSettingsSnapshotSchema,
  },
  updateAppSettings: {
    // Paused accounts change through pauseAgentAccount and resumeAccount only.
    params: z.object({ settings: AppSettingsSchema.omit({ pausedAccounts: true }).partial().strict() }).strict(),
    result: AppSettingsSnapshotSchema,
  },
} as const;

export type AppSettingsMethodName = keyof typeof APP_SETTINGS_METHODS;
