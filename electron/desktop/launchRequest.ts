import path from 'node:path';
import { z } from 'zod';
import type { Project } from '../../shared/entities/projects';
import type { DroverCaller } from '../cli/socketClient';

/**
 * What a launch asked the app for: `drover-desktop --project PATH` (or `--project=PATH`) opens
 * that folder's project, adding it first if needed. A second launch hands its request to the
 * running window through the single-instance lock's `additionalData` (Chromium may reorder the
 * argv it passes along, so the request travels already parsed).
 */
export const LaunchRequestSchema = z.object({ projectPath: z.string().min(1).optional() }).strict();
export type LaunchRequest = z.infer<typeof LaunchRequestSchema>;

/** Reads `--project` from a launch's argv; a relative path is taken from the launch's cwd. */
export function parseLaunchArgs(argv: readonly string[], cwd: string): LaunchRequest {
  let projectPath: string | undefined;
  argv.forEach((arg, index) => {
    if (arg.startsWith('--project=')) projectPath = arg.slice('--project='.length);
    else if (arg === '--project' && argv[index + 1] !== undefined) projectPath = argv[index + 1];
  });
  return projectPath ? { projectPath: path.resolve(cwd, projectPath) } : {};
}

/** The second launch's request; without one (another launcher), its argv read here. */
export function requestFromSecondInstance(additionalData: unknown, argv: readonly string[], cwd: string): LaunchRequest {
  const sent = LaunchRequestSchema.safeParse(additionalData);
  return sent.success ? sent.data : parseLaunchArgs(argv, cwd);
}

/** The project a request names, added if it was not registered yet; null when it names none. */
export async function projectForRequest(host: DroverCaller, request: LaunchRequest): Promise<Project | null> {
  return request.projectPath ? host.call('addProject', { path: request.projectPath }) : null;
}
