import { ChildProcess, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Socket } from 'node:net';
import { fail } from '../errors';

/** What of a session git's stderr is kept to say why it ended: its last words. */
const STDERR_KEPT = 4096;

/** A session's git that ended before it answered: what it said last on stderr (its fatal error), else how it ended. */
class GitSessionEnded extends Error {
  constructor(stderr: string, code: number | null) {
    super(stderr.trim().split('\n').at(-1) || `git ended (${code === null ? 'killed' : `exit code ${code}`}) before it answered`);
  }
}

/** When an answer is whole: after so many lines, or at the line a test passes (it is part of the answer). */
export type AnswerEnd = number | ((line: string) => boolean);

interface Pending {
  ends: AnswerEnd;
  got: string[];
  resolve: (lines: string[]) => void;
  reject: (error: Error) => void;
}

/** One running git of a session, with what it has printed so far. */
class Running {
  private readonly pending: Pending[] = [];
  private stdout = '';
  private stderr = '';
  private idleTimer: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly idleMs: number,
    private readonly onEnd: (running: Running) => void,
  ) {
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (text: string) => this.read(text));
    child.stderr.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-STDERR_KEPT)));
    // A write to a git that has ended fails with EPIPE; its exit, which follows, says what happened.
    child.stdin.on('error', () => {});
    child.on('error', (error) => this.end(new GitSessionEnded(error.message, null)));
    child.on('close', (code) => this.end(new GitSessionEnded(this.stderr, code)));
    this.hold(false);
  }

  send(input: string, ends: AnswerEnd): Promise<string[]> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.hold(true);
    return new Promise((resolve, reject) => {
      this.pending.push({ ends, got: [], resolve, reject });
      this.child.stdin.write(input);
    });
  }

  /** Ends git by closing its input (it finishes what it was asked first). */
  close(): void {
    this.detach();
    this.child.stdin.end();
  }

  private read(text: string): void {
    this.stdout += text;
    let newline: number;
    while ((newline = this.stdout.indexOf('\n')) >= 0) {
      const line = this.stdout.slice(0, newline);
      this.stdout = this.stdout.slice(newline + 1);
      const first = this.pending[0];
      if (!first) continue;
      first.got.push(line);
      if (typeof first.ends === 'number' ? first.got.length < first.ends : !first.ends(line)) continue;
      this.pending.shift();
      first.resolve(first.got);
    }
    if (this.pending.length > 0 || this.ended) return;
    this.hold(false);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.close(), this.idleMs);
    this.idleTimer.unref();
  }

  private end(error: GitSessionEnded): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.detach();
    for (const waiting of this.pending.splice(0)) waiting.reject(error);
  }

  /** Takes this git out of its session: the next request starts another. */
  private detach(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
  }

  /**
   * A git waiting for requests must not keep Drover's process alive (nor a bench or a test run
   * that used it); one that owes an answer must, or the answer could be lost with the process.
   */
  private hold(held: boolean): void {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr]) {
      // The pipes to git are sockets, whose reading holds the process as git itself does.
      if (!(handle instanceof ChildProcess || handle instanceof Socket)) continue;
      if (held) handle.ref();
      else handle.unref();
    }
  }
}

/**
 * A git that reads requests on its standard input and answers each with lines (`cat-file
 * --batch-check`, `update-ref --stdin`, `hash-object --stdin-paths`, `diff-tree --stdin`), kept
 * running between requests: a request costs a write and a read instead of a process (a few ms of
 * git's start, and the spawn itself blocking the host's thread). Git is started on the first request, ended after `idleMs` without one (so the
 * gits of a worktree nobody checkpoints any more go away), and started again when needed. One
 * that ended while it waited (killed, its folder gone) is started again for the same request.
 */
export class GitSession {
  private running: Running | null = null;

  /** `what` names it in a failure (`git update-ref in /a/folder`); `prepare` runs before each request (git's version check). */
  constructor(
    private readonly what: string,
    private readonly prepare: () => Promise<void>,
    private readonly start: () => ChildProcessWithoutNullStreams,
    private readonly idleMs: number,
  ) {}

  /**
   * Writes `input` to git and resolves with the lines it prints up to where `ends` says; fails in
   * git's words when git ends first. A git that was already running gets one more go with a fresh
   * git when it ends, or gives an answer `usable` refuses (it may be working in a folder since
   * removed and made again); a fresh git's answer is returned as it is.
   */
  async request(input: string, ends: AnswerEnd, usable: (answer: string[]) => boolean = () => true): Promise<string[]> {
    await this.prepare();
    for (let attempts = this.running ? 2 : 1; ; attempts--) {
      try {
        const answer = await this.runningGit().send(input, ends);
        if (attempts === 1 || usable(answer)) return answer;
        this.close();
      } catch (error) {
        if (!(error instanceof GitSessionEnded)) throw error;
        if (attempts === 1) fail('invalid-state', `${this.what} failed: ${error.message}`);
      }
    }
  }

  /** Ends the running git, if any. */
  close(): void {
    this.running?.close();
  }

  private runningGit(): Running {
    if (!this.running) {
      this.running = new Running(this.start(), this.idleMs, (ended) => {
        if (this.running === ended) this.running = null;
      });
    }
    return this.running;
  }
}
