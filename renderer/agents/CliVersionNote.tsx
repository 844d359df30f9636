import type { AgentSession } from '../../shared/entities/sessions';

/**
 * A quiet note when the agent's CLI is newer than the newest version Drover was tested with: the
 * agent runs as usual, but its screens or hooks may have changed.
 */
export function CliVersionNote({ session }: { session: AgentSession | undefined }) {
  const cli = session?.state === 'exited' ? null : session?.cliVersion;
  if (!cli?.newerThanTested) return null;
  const detail = `This CLI is version ${cli.version}, newer than the newest Drover was tested with (${cli.newerThanTested}). It runs as usual; if its state looks wrong, its screens may have changed.`;
  return (
    <span className="agent-pane__cli-version" role="note" title={detail} aria-label={detail}>
      {cli.version} untested
    </span>
  );
}
