/** What an agent CLI's integration adds to its launch. */
export interface CliLaunchInput {
  /** The `drover` shim the CLI's hooks and MCP server run. */
  drover: string;
  /** Private folder of this agent for generated config files. */
  agentDir: string;
  /** The CLI's own conversation id to resume, if any. */
  resumeId: string | null;
  /** The environment the agent starts from (where the person's own config lives). */
  env: NodeJS.ProcessEnv;
  /**
   * The project's `preApproveDroverTools`: every Drover tool runs without the CLI asking. Off,
   * only the read-only ones do, and the CLI asks the person before each of the others.
   */
  preApproveDroverTools: boolean;
  /**
   * The person paused the account this agent spends: a CLI that goes on by itself when a usage
   * limit resets is told not to, where it has a setting for that (Claude Code's
   * `autoContinueAtUsageLimit`, read when it starts).
   */
  accountPaused: boolean;
}

/** A config file Drover writes for the CLI (private to the agent), or a link to one of the person's. */
export type LaunchFile = { path: string; content: string } | { path: string; linkTo: string };

export interface CliLaunch {
  /** Added after the profile's own args. */
  args: string[];
  /** Config files the CLI is pointed at; the person's own config is never touched. */
  files: LaunchFile[];
  /** Added to the agent terminal's env. */
  env?: Record<string, string>;
  /** The conversation id Drover chose for a fresh conversation (where the CLI takes one up front). */
  conversationId?: string;
}
