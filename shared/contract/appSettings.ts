import { z } from 'zod';
import { AppSettingsSchema, AppSettingsSnapshotSchema } from '../appSettings';

export const APP_SETTINGS_METHODS = {
  getAppSettings: {
    params: z.object({}).strict(),
    result: AppSettingsSnapshotSchema,
  },
  updateAppSettings: {
    params: z.object({ settings: AppSettingsSchema.partial().strict() }).strict(),
    result: AppSettingsSnapshotSchema,
  },
} as const;

export type AppSettingsMethodName = keyof typeof APP_SETTINGS_METHODS;
