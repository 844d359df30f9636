import { useEffect, useMemo, useState } from 'react';
import type { Agent } from '../../shared/entities/agents';
import type { Worktree } from '../../shared/entities/worktrees';
import { countOf } from '../../shared/plural';
import type { AgentChanges, AgentsDiff } from '../../shared/turns';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { usePendingAction } from '../components/usePendingAction';
import { errorMessage } from '../format/errorMessage';
import { useAgents, useWorkState } from '../store/hooks';
import { useBridge } from '../store/StoreContext';
import { useProjectOverlaps } from '../store/useProjectOverlaps';
import { diffRows } from './diffChunks';
import { DiffRowsView } from './DiffRowsView';
import { MergeDialog } from './MergeDialog';
import { pairSentence } from './overlapNotes';

/** The most agents compared at once (the host's limit). */
const MAX_COMPARED = 8;

interface Compared {
  agent: Agent;
  worktree: Worktree;
}

function counts(entry: { additions: number; deletions: number }): string {
  return `+${entry.additions} −${entry.deletions}`;
}

/** Every file any of the agents changed, in order, with what each did to it. */
function fileRows(changes: readonly AgentChanges[]): { path: string; byAgent: Map<string, { additions: number; deletions: number }> }[] {
  const paths = [...new Set(changes.flatMap((entry) => entry.files.map((file) => file.path)))].sort((a, b) => a.localeCompare(b));
  return paths.map((path) => ({
    path,
    byAgent: new Map(changes.flatMap((entry) => entry.files.filter((file) => file.path === path).map((file) => [entry.agentId, file] as const))),
  }));
}

/** The two agents' worktrees, side by side: what taking the second instead of the first would change. */
function SideBySide({ compared }: { compared: readonly Compared[] }) {
  const bridge = useBridge();
  const [fromId, setFromId] = useState(compared[0]?.agent.id ?? '');
  const [toId, setToId] = useState(compared[1]?.agent.id ?? '');
  const [read, setRead] = useState<{ pair: string; diff: AgentsDiff | null; error: string | null }>({ pair: '', diff: null, error: null });
  const ids = compared.map((entry) => entry.agent.id);
  const from = ids.includes(fromId) ? fromId : (ids[0] ?? '');
  const to = ids.includes(toId) && toId !== from ? toId : (ids.find((id) => id !== from) ?? '');
  const pair = `${from}>${to}`;
  // What was read for another pair is never shown for this one.
  const diff = read.pair === pair ? read : { diff: null, error: null };
  const files = useMemo(() => diff.diff?.files ?? [], [diff.diff]);
  const rows = useMemo(() => diffRows(files), [files]);

  useEffect(() => {
    if (!from || !to) return;
    let current = true;
    bridge.call('diffAgents', { fromAgentId: from, toAgentId: to }).then(
      (answer) => current && setRead({ pair: `${from}>${to}`, diff: answer, error: null }),
      (failure: unknown) => current && setRead({ pair: `${from}>${to}`, diff: null, error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [bridge, from, to]);

  const picker = (label: string, value: string, onChange: (id: string) => void) => (
    <label className="field compare-dialog__pick">
      <span className="field-label">{label}</span>
      <select className="select select--field" value={value} onChange={(event) => onChange(event.target.value)}>
        {compared.map((entry) => (
          <option key={entry.agent.id} value={entry.agent.id}>
            {entry.agent.name} ({entry.worktree.branch})
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <section className="compare-dialog__side-by-side" aria-label="Side by side">
      <div className="compare-dialog__picks">
        {picker('Left', from, setFromId)}
        {picker('Right', to, setToId)}
        {diff.diff && <span className="field-hint">{`${countOf(files.length, 'file')} differ, ${counts(diff.diff)}`}</span>}
      </div>
      <FormError message={diff.error && `Could not compare them: ${diff.error}`} />
      {diff.diff === null ? (
        !diff.error && <p role="status">Comparing…</p>
      ) : files.length === 0 ? (
        <p className="changes-dialog__empty">Their worktrees hold the same files.</p>
      ) : (
        <DiffRowsView files={files} rows={rows} layout="split" onTopFile={() => {}} />
      )}
    </section>
  );
}

/**
 * Several agents that tried the same task: which files each changed, any two of them side by side,
 * and "Take this one", which merges that agent's branch (the usual checked merge) and offers to
 * archive the others: their worktrees go, their branches stay.
 */
export function CompareAgentsDialog({ projectId, onClose }: { projectId: string; onClose(): void }) {
  const bridge = useBridge();
  const agents = useAgents(projectId);
  const worktrees = useWorkState(projectId, 'worktreesByAgentId');
  const candidates = useMemo(
    () => agents.flatMap((agent) => (worktrees[agent.id]?.state === 'ready' ? [{ agent, worktree: worktrees[agent.id] as Worktree }] : [])),
    [agents, worktrees],
  );
  const [chosenIds, setChosenIds] = useState<ReadonlySet<string>>(() => new Set(candidates.slice(0, MAX_COMPARED).map((entry) => entry.agent.id)));
  const compared = candidates.filter((entry) => chosenIds.has(entry.agent.id));
  const comparedKey = compared.map((entry) => entry.agent.id).join(',');
  const [changes, setChanges] = useState<{ changes: AgentChanges[] | null; error: string | null }>({ changes: null, error: null });
  const [taking, setTaking] = useState<Compared | null>(null);
  /** The agent taken, and the others compared with it then (archiving them empties the comparison). */
  const [taken, setTaken] = useState<{ entry: Compared; others: readonly Compared[] } | null>(null);
  const [archived, setArchived] = useState<{ agentId: string; line: string }[]>([]);
  const archive = usePendingAction();
  const overlaps = useProjectOverlaps(projectId);
  const overlapping = (overlaps?.pairs ?? []).filter((pair) => pair.agents.every((agentId) => chosenIds.has(agentId)));

  useEffect(() => {
    const agentIds = comparedKey ? comparedKey.split(',') : [];
    if (agentIds.length < 2) return;
    let current = true;
    bridge.call('compareAgents', { agentIds }).then(
      (answer) => current && setChanges({ changes: answer, error: null }),
      (failure: unknown) => current && setChanges({ changes: null, error: errorMessage(failure) }),
    );
    return () => {
      current = false;
    };
  }, [bridge, comparedKey]);

  const toggle = (agentId: string) => {
    const next = new Set(chosenIds);
    if (next.has(agentId)) next.delete(agentId);
    else if (next.size < MAX_COMPARED) next.add(agentId);
    setChosenIds(next);
  };
  const others = (taken?.others ?? []).filter((entry) => !archived.some((done) => done.agentId === entry.agent.id));
  const archiveOthers = () =>
    void archive.run(async () => {
      for (const { agent } of others) {
        const removed = await bridge.call('removeAgent', { agentId: agent.id, keepBranch: true });
        const line = `Archived ${agent.name}; its branch ${removed.keptBranch ?? '(none: it was not Drover’s)'} is kept.`;
        setArchived((previous) => [...previous, { agentId: agent.id, line }]);
      }
    }, 'Could not archive: ');

  const rows = changes.changes ? fileRows(changes.changes) : [];
  const byAgent = new Map((changes.changes ?? []).map((entry) => [entry.agentId, entry]));
  return (
    <ModalDialog title="Compare agents" className="compare-dialog" onClose={onClose}>
      <fieldset className="compare-dialog__agents">
        <legend className="field-label">Agents to compare (two or more, each on its own branch)</legend>
        {candidates.map((entry) => (
          <label key={entry.agent.id} className="workspace-fields__choice">
            <input type="checkbox" checked={chosenIds.has(entry.agent.id)} onChange={() => toggle(entry.agent.id)} />
            <span>
              {entry.agent.name} <code className="field-hint">{entry.worktree.branch}</code>
            </span>
          </label>
        ))}
      </fieldset>
      {taken && (
        <section className="compare-dialog__taken" aria-label="Taken">
          <p role="status">
            Took {taken.entry.agent.name}: {taken.entry.worktree.branch} is merged into {taken.entry.worktree.parentBranch}.
          </p>
          {others.length > 0 && (
            <p>
              Archive the others? Their worktrees go and their sessions stop; their branches are kept.{' '}
              <button type="button" className="button" disabled={archive.pending} onClick={archiveOthers}>
                Archive {others.length === 1 ? (others[0]?.agent.name ?? '') : countOf(others.length, 'agent')}
              </button>
            </p>
          )}
          {archived.length > 0 && (
            <ul aria-label="Archived">
              {archived.map((done) => (
                <li key={done.agentId}>{done.line}</li>
              ))}
            </ul>
          )}
          <FormError message={archive.error} />
        </section>
      )}
      {taken ? null : compared.length < 2 ? (
        <p className="field-hint">Pick at least two agents with worktrees of their own.</p>
      ) : (
        <>
          <FormError message={changes.error && `Could not read their changes: ${changes.error}`} />
          {overlapping.length > 0 && (
            <ul className="compare-dialog__overlaps" aria-label="Overlaps">
              {overlapping.map((pair) => (
                <li key={pair.agents.join(',')} className={pair.conflict ? 'compare-dialog__overlap--conflict' : undefined}>
                  {pairSentence(pair)}
                </li>
              ))}
            </ul>
          )}
          <div className="compare-dialog__table-wrap">
            <table className="compare-dialog__table">
              <caption>Files each agent changed (committed or not)</caption>
              <thead>
                <tr>
                  <th scope="col">File</th>
                  {compared.map(({ agent }) => (
                    <th key={agent.id} scope="col">
                      {agent.name}
                      {byAgent.get(agent.id) && <span className="field-hint"> {counts(byAgent.get(agent.id) as AgentChanges)}</span>}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.path}>
                    <th scope="row">
                      <code>{row.path}</code>
                    </th>
                    {compared.map(({ agent }) => {
                      const file = row.byAgent.get(agent.id);
                      return <td key={agent.id}>{file ? counts(file) : '—'}</td>;
                    })}
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <td />
                  {compared.map((entry) => (
                    <td key={entry.agent.id}>
                      <button type="button" className="button button--primary button--row" onClick={() => setTaking(entry)}>
                        Take {entry.agent.name}
                      </button>
                    </td>
                  ))}
                </tr>
              </tfoot>
            </table>
          </div>
          <SideBySide compared={compared} />
        </>
      )}
      {taking && (
        <MergeDialog
          agent={taking.agent}
          worktree={taking.worktree}
          onMerged={() => setTaken({ entry: taking, others: compared.filter((entry) => entry.agent.id !== taking.agent.id) })}
          onClose={() => setTaking(null)}
        />
      )}
    </ModalDialog>
  );
}
