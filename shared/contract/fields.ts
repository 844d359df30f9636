import { z } from 'zod';

export const NonEmpty = z.string().trim().min(1);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text handed to a shell or the file system, at most `max` characters. A NUL would cut it short
 * and a lone surrogate cannot be stored as UTF-8, so what is stored would differ from what runs:
 * both are refused.
 */
function shellText(max: number) {
  return NonEmpty.max(max, `is longer than ${max} characters`)
    .refine((text) => !text.includes('\0'), 'contains a NUL character, which a command or path cannot hold')
    .refine((text) => !LONE_SURROGATE.test(text), 'is not valid Unicode text (it holds a lone surrogate)');
}

const MAX_COMMAND_CHARS = 100_000;
const MAX_LABEL_CHARS = 200;
const MAX_PATH_CHARS = 4096;
export const Command = shellText(MAX_COMMAND_CHARS);
export const Label = shellText(MAX_LABEL_CHARS);
export const FolderPath = shellText(MAX_PATH_CHARS);

export const TerminalSize = z.object({ cols: z.number().int().min(2).max(1000), rows: z.number().int().min(1).max(500) });

/** Paged lists: at most `limit` items, and never more than a page's worth of bytes. */
export const PageLimit = z.number().int().min(1).max(10_000);
