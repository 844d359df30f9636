import type { z } from 'zod';

/** A zod error as one line a person can act on: each issue's path (or `root`) and message. */
export function describeIssues(error: z.ZodError, root: string): string {
  return error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : root}: ${issue.message}`).join('; ');
}
