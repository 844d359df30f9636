/** What a failure says, for a dialog or the log. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
