import { formatDuration } from '../../../shared/duration';
import type { Task } from '../../../shared/entities/tasks';
import { describeExit } from '../../common/taskExit';
import { readLogSlice } from './taskLogReader';

const TAIL_BYTES = 4096;
const TAIL_LINES = 20;
const OUTPUT_TAIL_HEADING = 'Output tail:';
// Terminal escape sequences are control characters by definition.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

const OUTCOME: Record<string, string> = {
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'was cancelled',
  interrupted: 'was interrupted',
};

/**
 * A line as the terminal last showed it: a spinner or progress bar redraws its line after a carriage
 * return, so only its last drawing is kept, not every frame.
 */
function lastDrawing(line: string): string {
  const drawings = line.split('\r').filter((drawing) => drawing.trim().length > 0);
  return drawings[drawings.length - 1] ?? '';
}

/** The last lines of a task's output as plain text. */
export function outputTail(logPath: string): string {
  const { data } = readLogSlice(logPath, { tailBytes: TAIL_BYTES });
  return data
    .replace(ANSI, '')
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => lastDrawing(line).trimEnd())
    .filter((line, index, lines) => line.length > 0 || index < lines.length - 1)
    .slice(-TAIL_LINES)
    .join('\n')
    .trim();
}

/** The task's reason, less what only repeats how it exited (a failure's reason starts with its exit). */
function reasonBeyondExit(task: Task, exit: string): string | null {
  if (!task.reason?.startsWith(exit)) return task.reason;
  return task.reason.slice(exit.length).replace(/^[;,]\s*/, '') || null;
}

/** Enough of a command to know it by, on one line: the full text stays on the task (drover task show). */
const COMMAND_SHOWN = 160;

function commandInBrief(command: string): string {
  const flat = command.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > COMMAND_SHOWN ? `${flat.slice(0, COMMAND_SHOWN - 1)}…` : flat;
}

/** A task's result as its owner reads it: how it ended first (a long command never hides that), then the output's tail. */
export function describeTaskResult(task: Task): string {
  const command = commandInBrief(task.command);
  const name = task.label ? `"${task.label}" (${command})` : `"${command}"`;
  const exit = describeExit(task);
  const duration = task.startedAt && task.endedAt ? `, after ${formatDuration(task.endedAt - task.startedAt)}` : '';
  const extra = reasonBeyondExit(task, exit);
  const reason = extra ? ` (${extra})` : '';
  const tail = outputTail(task.logPath);
  return `Task ${task.id} ${name} ${OUTCOME[task.state] ?? task.state}: ${exit}${duration}${reason}.\n${tail ? `${OUTPUT_TAIL_HEADING}\n${tail}` : 'No output.'}`;
}

/** A task result's parts, as describeTaskResult wrote them: how it ended (one line), and its output's tail, if any. */
export function splitTaskResult(body: string): { outcome: string; tail: string | null } {
  const [outcome = '', ...rest] = body.split('\n');
  const [heading, ...tail] = rest;
  return { outcome, tail: heading === OUTPUT_TAIL_HEADING ? tail.join('\n') : null };
}
