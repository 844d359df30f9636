/** The text to show a person: the server's own message for a failed call, else the error's. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}
