import { useId, useState, type FormEvent } from 'react';
import { Field } from '../components/Field';
import { FormError } from '../components/FormError';
import { ModalDialog } from '../components/ModalDialog';
import { useNow } from '../components/useNow';
import { usePendingAction } from '../components/usePendingAction';
import { useProjectSettings } from '../store/hooks';
import { useBridge, useDroverActions } from '../store/StoreContext';
import { rateLimitNote } from './forgePresentation';
import { useForgeStatus } from './useForgeStatus';

const SOURCE_WORDS = { 'gh-cli': 'the GitHub CLI (gh auth token)', environment: 'GH_TOKEN / GITHUB_TOKEN', stored: 'the token you pasted here' } as const;

interface Edits {
  repository: string;
  apiUrl: string;
  autoChecks: boolean;
  autoReviews: boolean;
  shareToken: boolean;
}

/** Where the project's repository is on GitHub, who Drover is there, and what it sends its agents by itself. */
export function GitHubSettingsDialog({ projectId, onClose }: { projectId: string; onClose(): void }) {
  const bridge = useBridge();
  const { updateProjectSettings } = useDroverActions();
  const { settings } = useProjectSettings(projectId);
  const { status, error, reload, setStatus } = useForgeStatus(projectId);
  const [edited, setEdited] = useState<Edits | null>(null);
  const [token, setToken] = useState('');
  const save = usePendingAction({ clearErrorOnStart: true });
  const tokenAction = usePendingAction({ clearErrorOnStart: true });
  const shareHintId = useId();
  const fields: Edits | null =
    edited ??
    (settings
      ? { repository: settings.forgeRepository ?? '', apiUrl: settings.forgeApiUrl ?? '', autoChecks: settings.autoSendFailedChecks, autoReviews: settings.autoSendReviewComments, shareToken: settings.shareGitHubToken }
      : null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!fields) return;
    void save.run(async () => {
      await updateProjectSettings(projectId, {
        forgeRepository: fields.repository.trim() || null,
        forgeApiUrl: fields.apiUrl.trim() || null,
        autoSendFailedChecks: fields.autoChecks,
        autoSendReviewComments: fields.autoReviews,
        shareGitHubToken: fields.shareToken,
      });
      setEdited(null);
      await reload();
    }, 'Could not save: ');
  };
  const keepToken = (value: string | null) =>
    void tokenAction.run(async () => {
      setStatus(await bridge.call('setForgeToken', { projectId, token: value }));
      setToken('');
    }, value ? 'The token was not kept: ' : 'Could not forget the token: ');

  const auth = status?.auth;
  const now = useNow(false);
  const note = rateLimitNote(status?.rateLimit ?? null, now);
  return (
    <ModalDialog title="GitHub" className="github-dialog" onClose={onClose}>
      <section aria-label="Connection" className="github-dialog__connection">
        {status === null ? (
          <p role="status">{error ? `Could not ask: ${error}` : 'Looking at the project’s GitHub…'}</p>
        ) : (
          <>
            <p>
              Repository: <strong>{status.repository ?? 'none'}</strong>
              {status.apiUrl && (
                <>
                  {' '}
                  at <code>{status.apiUrl}</code>
                </>
              )}
              {status.detected.remoteUrl && <span className="field-hint"> (origin: {status.detected.remoteUrl})</span>}
            </p>
            {status.problem && <p role="alert">{status.problem}</p>}
            {auth?.login && auth.source && (
              <p role="status">
                Connected as <strong>{auth.login}</strong> through {SOURCE_WORDS[auth.source]}
                {auth.scopes && ` (scopes: ${auth.scopes.join(', ') || 'none'})`}.
              </p>
            )}
            {auth?.problem && <p role="alert">{auth.problem}</p>}
            {note && <p className="field-warning">{note}</p>}
          </>
        )}
      </section>
      <form className="form-grid" noValidate onSubmit={submit}>
        <Field label="Repository" note={{ text: `owner/name on GitHub. Empty: what origin says${status?.detected.repository ? ` (${status.detected.repository})` : ''}; set it for a fork's upstream.`, kind: 'hint' }}>
          {(describedBy) => (
            <input className="text-input" value={fields?.repository ?? ''} disabled={!fields} placeholder={status?.detected.repository ?? 'owner/name'} aria-describedby={describedBy} onChange={(event) => fields && setEdited({ ...fields, repository: event.target.value })} />
          )}
        </Field>
        <Field label="API URL" note={{ text: 'Empty: https://api.github.com for github.com, https://HOST/api/v3 for GitHub Enterprise Server. DROVER_GITHUB_API_URL overrides it.', kind: 'hint' }}>
          {(describedBy) => (
            <input className="text-input" value={fields?.apiUrl ?? ''} disabled={!fields} placeholder={status?.detected.apiUrl ?? 'https://github.example.com/api/v3'} aria-describedby={describedBy} onChange={(event) => fields && setEdited({ ...fields, apiUrl: event.target.value })} />
          )}
        </Field>
        <label className="workspace-fields__choice">
          <input type="checkbox" checked={fields?.autoChecks ?? false} disabled={!fields} onChange={(event) => fields && setEdited({ ...fields, autoChecks: event.target.checked })} />
          <span>Send failed checks to the agent by itself</span>
        </label>
        <label className="workspace-fields__choice">
          <input type="checkbox" checked={fields?.autoReviews ?? false} disabled={!fields} onChange={(event) => fields && setEdited({ ...fields, autoReviews: event.target.checked })} />
          <span>Send new review comments to the agent by itself</span>
        </label>
        <label className="workspace-fields__choice">
          <input type="checkbox" checked={fields?.shareToken ?? false} disabled={!fields} aria-describedby={shareHintId} onChange={(event) => fields && setEdited({ ...fields, shareToken: event.target.checked })} />
          <span>Give this project&apos;s agents and tasks the host&apos;s GH_TOKEN and GITHUB_TOKEN</span>
        </label>
        <p id={shareHintId} className="field-hint">
          Off, they stay in Drover&apos;s host, which speaks to GitHub for the agents. Agents and tasks started from now on follow the change.
        </p>
        <FormError message={save.error} />
        <div className="dialog__actions">
          <button type="submit" className="button button--primary" disabled={!fields || save.pending}>
            Save settings
          </button>
        </div>
      </form>
      <form
        className="form-grid"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim()) keepToken(token.trim());
          else tokenAction.setError('Paste a token first.');
        }}
      >
        <Field
          label="Token"
          note={{
            text: `A token is used only when gh is not logged in and GH_TOKEN is not set. Drover keeps a pasted token ${status?.tokenStorage ?? 'in its data folder'}, and sends it to ${status?.apiUrl ?? 'the API URL'} only.`,
            kind: 'hint',
          }}
        >
          {(describedBy) => <input className="text-input" type="password" autoComplete="off" value={token} aria-describedby={describedBy} onChange={(event) => setToken(event.target.value)} />}
        </Field>
        <FormError message={tokenAction.error} />
        <div className="dialog__actions">
          {auth?.source === 'stored' && (
            <button type="button" className="button" disabled={tokenAction.pending} onClick={() => keepToken(null)}>
              Forget the token
            </button>
          )}
          <button type="submit" className="button" disabled={tokenAction.pending}>
            Keep token
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
