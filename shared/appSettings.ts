import { z } from 'zod';
import { MAX_EDITOR_COMMAND_CHARS, parseEditorCommand } from './editor';

/** An account a person paused: Drover wakes none of its agents, in any project, until resumed. */
export const PausedAccountSchema = z.object({
  key: z.string().min(1).max(1_000),
  label: z.string().max(1_000),
  pausedAt: z.number().int().nonnegative(),
});
export type PausedAccount = z.infer<typeof PausedAccountSchema>;

/** How the pages look: dark, light, or whichever the system asks for (`prefers-color-scheme`), followed live. */
export const ThemeChoiceSchema = z.enum(['dark', 'light', 'system']);
export type ThemeChoice = z.infer<typeof ThemeChoiceSchema>;

/** Settings of the whole app (every project): kept in `app.sqlite`, shown on the Settings page. */
export const AppSettingsSchema = z.object({
  /**
   * The AppImage checks GitHub releases for a new version, downloads it in the background and
   * asks before restarting. The .deb leaves updating to the package manager.
   */
  checkForUpdates: z.boolean(),
  /** Lines of history the host keeps of each agent terminal: what every window shows above the screen. */
  terminalScrollbackLines: z.number().int().min(100, 'keep at least 100 lines').max(10_000, 'keep at most 10,000 lines'),
  /** Kept by the host, so the desktop window and every browser page of this host look the same. */
  theme: ThemeChoiceSchema,
  /** Accounts whose agents wait (see `pauseAgentAccount`); set through those methods, not the Settings page. */
  pausedAccounts: z.array(PausedAccountSchema).max(1_000),
  /**
   * The person's editor (see `shared/editor.ts`): a command with `{file}`, `{line}`, `{column}`,
   * which the host runs without a shell; empty until chosen.
   */
  editorCommand: z
    .string()
    .trim()
    .max(MAX_EDITOR_COMMAND_CHARS, `keep the editor command under ${MAX_EDITOR_COMMAND_CHARS} characters`)
    .superRefine((template, context) => {
      const parsed = template === '' ? null : parseEditorCommand(template);
      if (parsed && 'error' in parsed) context.addIssue({ code: 'custom', message: parsed.error });
    }),
});
export type AppSettings = z.infer<typeof AppSettingsSchema>;

export const DEFAULT_APP_SETTINGS: AppSettings = {
  checkForUpdates: true,
  terminalScrollbackLines: 5_000,
  theme: 'dark',
  pausedAccounts: [],
  editorCommand: '',
};

/** The settings under the app-wide `seq` (the one `projectChanged` carries), like `listProjects`. */
export const AppSettingsSnapshotSchema = z.object({
  seq: z.number().int().nonnegative(),
  settings: AppSettingsSchema,
});
export type AppSettingsSnapshot = z.infer<typeof AppSettingsSnapshotSchema>;
