import { DroverRequestError, type ErrorCode } from '../../shared/protocol';

/** Domain errors carry a contract error code, so every door reports them the same way. */
export function fail(code: ErrorCode, message: string): never {
  throw new DroverRequestError(code, message);
}

export { DroverRequestError };

function hasCode(error: unknown): error is { code: string; message: string } {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

/** Maps whatever was thrown to a contract error a person can act on. */
export function toRequestError(error: unknown): DroverRequestError {
  if (error instanceof DroverRequestError) return error;
  if (hasCode(error)) {
    if (error.code === 'SQLITE_FULL' || error.code === 'ENOSPC') {
      return new DroverRequestError('disk-full', `The disk is full: ${error.message}. Free some space and try again.`);
    }
    if (error.code.startsWith('SQLITE_CORRUPT') || error.code === 'SQLITE_NOTADB') {
      return new DroverRequestError('storage-unavailable', `A database file is damaged: ${error.message}`);
    }
    if (error.code.startsWith('SQLITE_')) {
      return new DroverRequestError('storage-unavailable', `Database error (${error.code}): ${error.message}`);
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return new DroverRequestError('internal', `Internal error: ${message}`);
}
