import { countOf } from '../../../shared/plural';
import { lineRange, type DiffComment } from '../../../shared/turns';

function quote(lines: string): string {
  return lines
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** One inbox message carrying a person's comments on the agent's diff: where, the lines, what they said. */
export function commentsMessage(comments: readonly DiffComment[]): string {
  const parts = comments.map((comment, index) => {
    const quoted = comment.quoted.trim() ? `${quote(comment.quoted)}\n` : '';
    return `${index + 1}. ${comment.path}, ${lineRange(comment)}:\n${quoted}${comment.body.trim()}`;
  });
  return `Review comments on your changes (${countOf(comments.length, 'comment')}):\n\n${parts.join('\n\n')}\n\nPlease address each of them, then say what you changed.`;
}
