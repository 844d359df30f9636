import { parseArgs, type ParseArgsConfig } from 'node:util';
import { TaskIdSchema } from '../../shared/entities/ids';
import { UsageError } from './usage';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `parseArgs` for one `drover` command, with its refusals in this CLI's words: Node's own name the
 * option inside a suggestion (`as in '-- "--bogus"`) that reads as broken quoting.
 */
export function parseCommandArgs<T extends Options>(command: string, args: string[], options: T, allowPositionals = false) {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'option' && !(token.name in options)) throw new UsageError(`${command} has no option ${token.rawName}.`);
    if (token.kind === 'positional' && !allowPositionals) throw new UsageError(`${command} takes no argument ${token.value}.`);
  }
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`${command}: ${(error as Error).message.replace(/'/g, '')}.`);
    throw error;
  }
}

/** A task id as given on the command line; one that cannot be an id is refused before Drover is asked. */
export function taskIdArgument(positionals: string[], command: string): string {
  const [id, extra] = positionals;
  if (!id || extra !== undefined) throw new UsageError(`drover task ${command} takes exactly one task id`);
  if (!TaskIdSchema.safeParse(id).success) throw new UsageError(`${id} is not a task id (ids look like t-0mx4fpcelq4qxiu; drover task list shows them).`);
  return id;
}
