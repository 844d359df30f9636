import { z } from 'zod';

/** What "Install command line tool" did, and whether a shell will find the command. */
export const CommandLineToolInstallSchema = z.object({
  /** Where `drover` is now. */
  path: z.string(),
  /** `written`: the launcher was (re)written just now; `package`: the system package provides it. */
  source: z.enum(['written', 'package']),
  /** Whether the folder holding it is on the PATH Drover was started with. */
  onPath: z.boolean(),
  /** Another `drover` a shell would run instead (earlier on PATH), if any. */
  shadowedBy: z.string().nullable(),
  /** The home folder Drover ran with, so paths can be shown as `~/...`. */
  home: z.string(),
});
export type CommandLineToolInstall = z.infer<typeof CommandLineToolInstallSchema>;

/** Shows `/home/ada/.local/bin` as `~/.local/bin` when it lies in `home`. */
export function tildePath(file: string, home: string | undefined): string {
  if (!home || home === '/') return file;
  const base = home.endsWith('/') ? home.slice(0, -1) : home;
  return file === base || file.startsWith(`${base}/`) ? `~${file.slice(base.length)}` : file;
}

function folderOf(file: string): string {
  const cut = file.lastIndexOf('/');
  return cut > 0 ? file.slice(0, cut) : '/';
}

/**
 * The sentences a person reads after "Install command line tool" (the Settings page, the menu's
 * dialog, the command palette): where the command is, and what to do if a shell won't find it.
 */
export function describeCommandLineTool(result: CommandLineToolInstall): string[] {
  const { home } = result;
  const shown = tildePath(result.path, home);
  const lines = [
    result.source === 'package'
      ? `The Drover package installed the drover command at ${shown}.`
      : `Installed the drover command at ${shown}.`,
  ];
  if (!result.onPath) {
    const folder = tildePath(folderOf(result.path), home);
    const inHome = folder.startsWith('~/');
    lines.push(
      `${folder} is not on your PATH: add it (for example, put export PATH="${inHome ? `$HOME${folder.slice(1)}` : folder}:$PATH" in ~/.profile), then open a new terminal.`,
    );
  }
  if (result.shadowedBy) {
    lines.push(`Another drover comes first on your PATH: ${tildePath(result.shadowedBy, home)}. Remove it, or put ${tildePath(folderOf(result.path), home)} before it.`);
  }
  return lines;
}
