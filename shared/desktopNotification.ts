import { z } from 'zod';

/** A native notification the page asks the desktop app to show; `id` comes back when it is clicked. */
export const DesktopNotificationSchema = z
  .object({
    id: z.string().min(1).max(300),
    title: z.string().min(1).max(300),
    body: z.string().max(2000),
    /** Without the system's sound. */
    silent: z.boolean(),
  })
  .strict();
export type DesktopNotification = z.infer<typeof DesktopNotificationSchema>;

/** How many items need the person: the taskbar badge (0 clears it). */
export const BadgeCountSchema = z.number().int().min(0).max(100_000);
