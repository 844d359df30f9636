import type { Check, ForgeIssueRef, PullRequest } from '../../../shared/forge';
import type { ReviewComment } from './forge';

export interface BranchCommit {
  subject: string;
  body: string;
}

/** `drover/issue-12-fix-the-cart` → "Issue 12 fix the cart". */
function branchWords(branch: string): string {
  const words = (branch.split('/').pop() ?? branch).replace(/[-_]+/g, ' ').trim();
  return words ? `${words[0]?.toUpperCase() ?? ''}${words.slice(1)}` : branch;
}

/**
 * A pull request's title and body from the branch's commits, as GitHub drafts one: one commit gives
 * its subject and message; several give the issue's title (or the branch's name) and a list of
 * them. An agent started on an issue closes it (`Fixes #N`).
 */
export function draftPullRequestText(branch: string, commits: readonly BranchCommit[], issue: ForgeIssueRef | null): { title: string; body: string } {
  const only = commits.length === 1 ? commits[0] : undefined;
  const title = only?.subject ?? issue?.title ?? branchWords(branch);
  const description = only ? only.body.trim() : commits.map((commit) => `- ${commit.subject}`).join('\n');
  const body = [description, issue ? `Fixes #${issue.number}` : ''].filter((part) => part.length > 0).join('\n\n');
  return { title: title.slice(0, 256), body };
}

/** The issue as the agent's first prompt: its title, link and text. */
export function issuePrompt(issue: { number: number; title: string; url: string; body: string }, branch: string): string {
  const body = issue.body.trim() || '(The issue has no description.)';
  return `GitHub issue #${issue.number}: ${issue.title}\n${issue.url}\n\n${body}\n\nPlease work on it here, on branch ${branch}, and commit your changes.`;
}

/** The failed checks with what the forge says about each, for the agent's inbox. */
export function failedChecksMessage(pullRequest: PullRequest, details: ReadonlyMap<string, string>): string {
  const failed = pullRequest.checks.filter((check) => check.state === 'failed');
  const lines = failed.map((check: Check) => {
    const said = details.get(check.id)?.trim();
    return [`- ${check.name} (${check.conclusion ?? 'failed'})${check.url ? ` ${check.url}` : ''}`, ...(said ? said.split('\n').map((line) => `  ${line}`) : [])].join('\n');
  });
  return (
    `The checks of your pull request #${pullRequest.number} (${pullRequest.url}) failed on commit ${pullRequest.headSha.slice(0, 10)}:\n` +
    `${lines.join('\n')}\n\nPlease fix them on your branch ${pullRequest.headBranch} and commit; the pull request picks the commits up once the branch is pushed.`
  );
}

/** The last lines of the diff a comment is on: the code it quotes. */
function quotedCode(diffHunk: string): string {
  return diffHunk
    .split('\n')
    .filter((line) => !line.startsWith('@@'))
    .slice(-3)
    .map((line) => `    > ${line}`)
    .join('\n');
}

/** Review comments grouped in one message: each thread's file, line, the code it quotes, and what was said. */
export function reviewCommentsMessage(pullRequest: PullRequest, comments: readonly ReviewComment[]): string {
  const threads = comments.filter((comment) => comment.inReplyTo === null);
  const replies = comments.filter((comment) => comment.inReplyTo !== null);
  const items = threads.map((thread, index) => {
    const answers = replies.filter((reply) => reply.inReplyTo === thread.id).map((reply) => `   ${reply.author} replied: ${reply.body.trim()}`);
    const where = thread.line === null ? thread.path : `${thread.path} line ${thread.line}`;
    return [`${index + 1}. ${where} (${thread.author}):`, quotedCode(thread.diffHunk), `   ${thread.body.trim()}`, ...answers].join('\n');
  });
  return `Review comments on your pull request #${pullRequest.number} (${pullRequest.url}):\n\n${items.join('\n\n')}\n\nPlease address them on your branch ${pullRequest.headBranch} and commit.`;
}
