import { ForgeApiUrlSchema, type ForgeStatus } from '../../../shared/forge';
import { DroverRequestError, fail } from '../errors';
import type { Git } from '../git/runner';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStores } from '../storage/projectStores';
import type { Forge } from './forge';
import { apiUrlForHost, parseRemoteUrl } from './forgeRemote';
import type { ForgeTokens, TokenSource } from './forgeTokens';
import { GitHubForge } from './githubForge';

/** A project's forge, ready to be asked. */
export interface ProjectForge {
  forge: Forge;
  repository: string;
  apiUrl: string;
  tokenSource: TokenSource;
  /** The owner of the fork the branches are pushed to, when origin is a fork of `repository`. */
  headOwner: string;
}

interface Located {
  repository: string | null;
  apiUrl: string | null;
  detected: ForgeStatus['detected'];
  problem: string | null;
}

export interface ForgeConnectorOptions {
  env: NodeJS.ProcessEnv;
  userAgent: string;
  log(line: string): void;
}

const TOKEN_WORDS: Readonly<Record<TokenSource, string>> = {
  'gh-cli': 'the GitHub CLI (gh auth token)',
  environment: 'GH_TOKEN / GITHUB_TOKEN',
  stored: 'the token pasted into Drover',
};

/** A remote URL without the user and password it may carry, fit to show. */
function withoutCredentials(remote: string): string {
  try {
    const url = new URL(remote);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return remote;
  }
}

/**
 * Where each project's forge is and how Drover gets in: the repository and API URL from `origin`,
 * unless the project's settings name them (forks, Enterprise hosts) or DROVER_GITHUB_API_URL
 * overrides the API for every project; the token from `ForgeTokens`.
 */
export class ForgeConnector {
  private readonly forges = new Map<string, GitHubForge>();

  constructor(
    private readonly projects: ProjectRegistry,
    private readonly stores: ProjectStores,
    private readonly git: Git,
    readonly tokens: ForgeTokens,
    private readonly options: ForgeConnectorOptions,
  ) {}

  /** Talks to the project's forge, or fails saying what is missing and how to fix it. */
  async connect(projectId: string): Promise<ProjectForge> {
    const located = await this.locate(projectId);
    if (located.problem || !located.repository || !located.apiUrl) fail('invalid-state', located.problem ?? 'The project has no GitHub repository.');
    const resolved = await this.tokens.resolve(located.apiUrl);
    if (!resolved) {
      fail(
        'invalid-state',
        `No GitHub token for ${located.apiUrl}: log in with the GitHub CLI (gh auth login), set GH_TOKEN, or paste a token in the project's GitHub settings.`,
      );
    }
    const key = `${located.apiUrl}\n${located.repository}\n${resolved.token}`;
    let forge = this.forges.get(key);
    if (!forge) {
      forge = new GitHubForge({
        apiUrl: located.apiUrl,
        repository: located.repository,
        token: resolved.token,
        tokenSource: TOKEN_WORDS[resolved.source],
        userAgent: this.options.userAgent,
        log: this.options.log,
      });
      this.forges.set(key, forge);
    }
    const [owner = ''] = located.repository.split('/');
    const forkOwner = located.detected.repository?.split('/')[0];
    return { forge, repository: located.repository, apiUrl: located.apiUrl, tokenSource: resolved.source, headOwner: forkOwner && located.detected.apiUrl === located.apiUrl ? forkOwner : owner };
  }

  /**
   * Fails, saying what to do, when the project has no origin remote: a pull request's branch is
   * pushed there, which the repository named in the project's GitHub settings cannot stand in for.
   */
  async requireOrigin(projectId: string): Promise<void> {
    const { path } = this.projects.get(projectId);
    if ((await this.originUrl(path)) !== null) return;
    fail(
      'invalid-state',
      `This project has no origin remote, which Drover pushes the agent's branch to before it opens a pull request: add one with git remote add origin URL (in ${path}), then open the pull request again.`,
    );
  }

  /** The project's forge as the GitHub settings show it, including whether the token works. */
  async status(projectId: string): Promise<ForgeStatus> {
    const located = await this.locate(projectId);
    const auth: ForgeStatus['auth'] = { source: null, login: null, scopes: null, problem: null };
    let rateLimit: ForgeStatus['rateLimit'] = null;
    if (!located.problem && located.apiUrl) {
      try {
        const connected = await this.connect(projectId);
        auth.source = connected.tokenSource;
        try {
          const viewer = await connected.forge.viewer();
          auth.login = viewer.login;
          auth.scopes = viewer.scopes;
        } finally {
          rateLimit = connected.forge.rateLimit();
        }
      } catch (error) {
        if (!(error instanceof DroverRequestError)) throw error;
        auth.problem = error.message;
      }
    }
    const { repository, apiUrl, detected, problem } = located;
    return { projectId, repository, apiUrl, detected, problem, auth, tokenStorage: this.tokens.vault.description, rateLimit };
  }

  /** Keeps (or forgets) a pasted token for the project's API, once the API took it. */
  async setToken(projectId: string, token: string | null): Promise<ForgeStatus> {
    const { apiUrl, problem } = await this.locate(projectId);
    if (!apiUrl) fail('invalid-state', problem ?? 'Set the project’s GitHub API URL first: a token is kept for one API only.');
    if (token !== null) {
      const trial = new GitHubForge({ apiUrl, repository: 'drover/check', token, tokenSource: 'the pasted token', userAgent: this.options.userAgent, log: this.options.log });
      await trial.viewer();
    }
    this.tokens.store(apiUrl, token);
    return this.status(projectId);
  }

  /** The token was refused: the next call looks for one again. */
  tokenRefused(apiUrl: string): void {
    this.tokens.forget(apiUrl);
  }

  private async locate(projectId: string): Promise<Located> {
    const project = this.projects.get(projectId);
    const settings = this.stores.get(projectId).settings.get();
    const remoteUrl = await this.originUrl(project.path);
    const parsed = remoteUrl ? parseRemoteUrl(remoteUrl) : null;
    const detected = { repository: parsed?.repository ?? null, apiUrl: parsed ? apiUrlForHost(parsed.host) : null, remoteUrl: remoteUrl && withoutCredentials(remoteUrl) };
    const override = this.options.env.DROVER_GITHUB_API_URL?.trim().replace(/\/+$/, '');
    if (override && !ForgeApiUrlSchema.safeParse(override).success) {
      return { repository: null, apiUrl: null, detected, problem: `DROVER_GITHUB_API_URL (${override}) is not an https:// API URL.` };
    }
    const repository = settings.forgeRepository ?? detected.repository;
    const apiUrl = override || settings.forgeApiUrl?.replace(/\/+$/, '') || detected.apiUrl;
    let problem: string | null = null;
    const shown = detected.remoteUrl;
    if (!repository) {
      problem = shown
        ? `origin (${shown}) is not a GitHub repository Drover recognises: set the repository (owner/name) in the project's GitHub settings.`
        : `${project.path} has no origin remote: add one (git remote add origin URL), or set the repository (owner/name) in the project's GitHub settings.`;
    } else if (!apiUrl) {
      problem = `origin (${shown ?? 'none'}) is on ${parsed?.host ?? 'a host'} that is not GitHub. Drover speaks to GitHub and GitHub Enterprise Server: if it is one, set its API URL (https://HOST/api/v3) in the project's GitHub settings.`;
    }
    return { repository, apiUrl, detected, problem };
  }

  private async originUrl(repo: string): Promise<string | null> {
    const origin = await this.git.run(repo, ['remote', 'get-url', 'origin'], { okCodes: [0, 2, 128] });
    return origin.code === 0 ? origin.stdout.trim() : null;
  }
}
