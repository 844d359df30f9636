import path from 'node:path';
import { editorArgv } from '../../../shared/editor';
import { shellLine } from '../../common/shellQuote';
import type { AgentService } from '../agents/agentService';
import { fail } from '../errors';
import type { SessionService } from '../sessions/sessionService';
import type { ProjectStores } from '../storage/projectStores';

export interface HostTerminalEditor {
  variable: 'VISUAL' | 'EDITOR';
  command: string;
}

export interface TerminalEditorOpening {
  projectId: string;
  projectPath: string;
  /** Canonical, inside `root`. */
  file: string;
  /** The folder of the worktree (or the project) the file lies in: where the editor runs. */
  root: string;
  line: number;
  column: number;
  template: string;
}

export interface TerminalEditorTimings {
  /** How long the new shell has to show its prompt before the editor command is typed. */
  promptMs: number;
  pollMs: number;
}

const DEFAULT_TIMINGS: TerminalEditorTimings = { promptMs: 20_000, pollMs: 100 };
const TYPING = { submitDelayMs: 100, confirmMs: 5_000, keysQuietMs: 2_000 };
const SHELL_PROFILE = 'shell';
/** Agent names go up to 60 characters; room is left for a " (2)". */
const MAX_NAME_CHARS = 50;

/** The host's terminal editor, as a person's shell would pick it: $VISUAL first, then $EDITOR. */
export function hostTerminalEditor(env: NodeJS.ProcessEnv): HostTerminalEditor | null {
  for (const variable of ['VISUAL', 'EDITOR'] as const) {
    const command = env[variable]?.trim();
    if (command) return { variable, command };
  }
  return null;
}

/**
 * Opens a file in the host's terminal editor: a new Shell agent (the Shell profile, started like
 * any agent) gets, typed at its first prompt, a command that goes to the file's worktree and runs
 * the editor there. Typed rather than run in its place, so the pane is a normal shell once the
 * editor exits. The editor's own command ($VISUAL or $EDITOR) is typed as the host has it, so its
 * words split as a shell splits them; the file and the other arguments are quoted.
 */
export class TerminalEditor {
  constructor(
    private readonly agents: AgentService,
    private readonly sessions: SessionService,
    private readonly stores: ProjectStores,
    private readonly env: NodeJS.ProcessEnv,
    private readonly timings: TerminalEditorTimings = DEFAULT_TIMINGS,
  ) {}

  host(): HostTerminalEditor | null {
    return hostTerminalEditor(this.env);
  }

  async open({ projectId, projectPath, file, root, line, column, template }: TerminalEditorOpening): Promise<{ agentId: string; argv: string[] }> {
    const editor = this.host();
    if (!editor) fail('invalid-state', 'Neither $VISUAL nor $EDITOR is set in the Drover host’s environment: set one before starting the host, or choose another editor in Settings → Editor.');
    const relative = path.relative(root, file);
    const built = editorArgv(template, { file: relative, line: String(line), column: String(column) });
    if ('error' in built) fail('invalid-state', built.error);
    const editorLine = `${editor.command} ${shellLine(built.args)}`;
    const typed = path.resolve(root) === path.resolve(projectPath) ? editorLine : `cd ${shellLine([root])} && ${editorLine}`;

    const agent = await this.agents.create({ projectId, name: this.freeName(projectId, `Edit ${path.basename(file)}`.slice(0, MAX_NAME_CHARS)), role: `Runs ${editor.command} on ${relative} in ${root}.`, profileId: SHELL_PROFILE });
    try {
      this.sessions.start(agent.id, false);
    } catch (error) {
      // A pane whose shell never started would be one more thing to remove by hand.
      await this.agents.remove(agent.id);
      throw error;
    }
    await this.typeAtPrompt(agent.id, agent.name, typed);
    return { agentId: agent.id, argv: [editor.command, ...built.args] };
  }

  private freeName(projectId: string, wanted: string): string {
    const agents = this.stores.get(projectId).agents;
    for (let count = 1; ; count++) {
      const name = count === 1 ? wanted : `${wanted} (${count})`;
      if (!agents.byName(name)) return name;
    }
  }

  private async typeAtPrompt(agentId: string, name: string, command: string): Promise<void> {
    const deadline = Date.now() + this.timings.promptMs;
    let why = await this.sessions.readiness(agentId, TYPING.keysQuietMs);
    while (why !== null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, this.timings.pollMs));
      why = await this.sessions.readiness(agentId, TYPING.keysQuietMs);
    }
    const typing = why === null ? await this.sessions.typePrompt(agentId, () => command, TYPING) : { outcome: 'not-ready' as const, why };
    if (typing.outcome !== 'submitted') fail('spawn-failed', `The new Shell pane ${name} did not take the editor command (${typing.why}): type ${command} there yourself.`);
  }
}
