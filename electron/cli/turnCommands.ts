import { checkpointLabel, promptHeadline, type Turn } from '../../shared/turns';
import { parseCommandArgs } from './cliOptions';
import { connectToDrover } from './socketClient';
import { resolveProject, type CliContext } from './taskCommands';
import { UsageError } from './usage';
import { agentIdOf, patchText, statText, table } from './worktreeCommands';

const KIND_WORDS: Readonly<Record<Turn['kind'], string>> = { start: 'start', turn: 'turn', restore: 'restore', revert: 'revert' };

function checkpointNumber(text: string | undefined, what: string): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new UsageError(`${what} must be a checkpoint number (0 is the start), not ${text ?? 'nothing'}`);
  return Number(text);
}

function time(at: number): string {
  return new Date(at).toISOString().replace('T', ' ').slice(0, 19);
}

function turnsTable(turns: readonly Turn[]): string {
  const rows = turns.map((turn) => [
    String(turn.n),
    KIND_WORDS[turn.kind],
    time(turn.takenAt),
    String(turn.files),
    `+${turn.additions}`,
    `-${turn.deletions}`,
    turn.kind === 'turn' ? (promptHeadline(turn.prompt, 80) ?? '') : checkpointLabel(turn),
  ]);
  return `${table([['N', 'KIND', 'TAKEN', 'FILES', 'ADDED', 'REMOVED', 'PROMPT'], ...rows])}\n`;
}

const USAGE_LINES = 'drover turns AGENT [--json] | turns diff AGENT N [M] [--stat] [--json] | turns restore AGENT N [--json]';

/**
 * `drover turns AGENT` lists an agent's checkpoints; `turns diff AGENT N [M]` prints what checkpoint
 * N (through M) changed; `turns restore AGENT N` puts the worktree back as checkpoint N had it.
 */
export async function turnsCommand(args: string[], context: CliContext): Promise<number> {
  const { values, positionals } = parseCommandArgs('drover turns', args, { project: { type: 'string' }, json: { type: 'boolean', default: false }, stat: { type: 'boolean', default: false } }, true);
  const [first, ...rest] = positionals;
  const sub = first === 'diff' || first === 'restore' ? first : 'list';
  const [agent, ...numbers] = sub === 'list' ? positionals : rest;
  if (!agent) throw new UsageError(`drover turns needs an agent (its name or id): ${USAGE_LINES}`);
  const expected = { list: [0, 0], diff: [1, 2], restore: [1, 1] }[sub];
  if (numbers.length < (expected[0] ?? 0) || numbers.length > (expected[1] ?? 0)) throw new UsageError(`Usage: ${USAGE_LINES}`);
  const client = await connectToDrover(context.socketPath);
  const { rpc } = client;
  try {
    const project = await resolveProject(rpc, values.project, context);
    const agentId = await agentIdOf(rpc, project, agent);
    const print = (value: unknown, text: () => string) => context.out(values.json ? `${JSON.stringify(value, null, 2)}\n` : text());
    if (sub === 'list') {
      const { turns } = await rpc.call('listTurns', { agentId });
      print(turns, () => (turns.length === 0 ? `${agent} has no checkpoints yet (they start with its first session in a worktree of its own).\n` : turnsTable(turns)));
    } else if (sub === 'diff') {
      const from = checkpointNumber(numbers[0], 'N');
      const to = numbers[1] === undefined ? from : checkpointNumber(numbers[1], 'M');
      const diff = await rpc.call('getTurnDiff', { agentId, from, to });
      print(diff, () =>
        values.stat
          ? statText(
              diff.files.map((file) => [file.path, `+${file.additions}`, `-${file.deletions}`, file.binary ? 'binary' : '']),
              { files: diff.files.length, additions: diff.additions, deletions: diff.deletions },
            )
          : patchText(diff.files, `git diff ${diff.base} ${diff.head}`),
      );
    } else {
      const restored = await rpc.call('restoreTurn', { agentId, n: checkpointNumber(numbers[0], 'N') });
      print(restored, () => `Restored checkpoint ${restored.restoredTo} of ${agent}; what it held before is checkpoint ${restored.undo.n} (drover turns restore ${agent} ${restored.undo.n} undoes this).\n`);
    }
    return 0;
  } finally {
    client.close();
  }
}
