import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ProjectSettings } from '../../../shared/entities/projects';
import { GITHUB_API_URL, ghHostnameOf } from './forgeRemote';

export type TokenSource = 'gh-cli' | 'environment' | 'stored';

export interface ResolvedToken {
  token: string;
  source: TokenSource;
}

/**
 * Tokens a person pasted, one per API URL, in a file only its owner can read. The host runs in a
 * process of its own, where no system keyring is at hand (Electron's safeStorage lives only in the
 * window's process), so the file is not encrypted, and the page says so.
 */
export class TokenVault {
  constructor(private readonly file: string) {}

  /** What the page tells the person before they paste a token. */
  get description(): string {
    return `in ${this.file}, readable only by you (mode 0600) but not encrypted: anyone who can read your files as you can read it`;
  }

  read(apiUrl: string): string | null {
    const token = this.all()[apiUrl];
    return typeof token === 'string' ? token : null;
  }

  write(apiUrl: string, token: string | null): void {
    const tokens = this.all();
    if (token === null) delete tokens[apiUrl];
    else tokens[apiUrl] = token;
    // Written whole under another name and renamed: a crash never leaves half a file, and the mode is set before any byte.
    const temporary = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${process.pid}`);
    fs.writeFileSync(temporary, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
    fs.chmodSync(temporary, 0o600);
    fs.renameSync(temporary, this.file);
  }

  private all(): Record<string, unknown> {
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
}

/** Runs `gh auth token` for a host; null when gh is missing or not logged in there. */
export type GhTokenReader = (hostname: string, env: NodeJS.ProcessEnv) => Promise<string | null>;

const TOKEN_VARIABLES: readonly string[] = ['GH_TOKEN', 'GITHUB_TOKEN', 'GH_ENTERPRISE_TOKEN', 'GITHUB_ENTERPRISE_TOKEN'];

/** The environment without its GitHub tokens (GH_TOKEN, GITHUB_TOKEN and their Enterprise twins). */
export function withoutForgeTokens(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !TOKEN_VARIABLES.includes(key)));
}

/** Only the environment's GitHub tokens. */
export function forgeTokensIn(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => TOKEN_VARIABLES.includes(entry[0]) && entry[1] !== undefined));
}

/**
 * What agents and tasks of a project start from: the host's environment without its GitHub tokens,
 * unless the project shares them (`shareGitHubToken`). The host keeps them to speak to GitHub itself.
 */
export function workEnvFor(env: NodeJS.ProcessEnv): (settings: Pick<ProjectSettings, 'shareGitHubToken'>) => Record<string, string> {
  const defined = (from: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(from).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const withTokens = defined(env);
  const withoutTokens = defined(withoutForgeTokens(env));
  return (settings) => (settings.shareGitHubToken ? withTokens : withoutTokens);
}

export const readGhToken: GhTokenReader = (hostname, env) =>
  new Promise((resolve) => {
    // Without the token variables gh would echo them back as its own: Drover names those as environment tokens.
    const clean = withoutForgeTokens(env);
    execFile('gh', ['auth', 'token', '--hostname', hostname], { env: clean, timeout: 10_000, encoding: 'utf8' }, (error, stdout) => {
      const token = stdout.trim();
      resolve(error || !/^[\x21-\x7e]+$/.test(token) ? null : token);
    });
  });

const CACHE_MS = 5 * 60_000;

/**
 * Where the token for an API comes from, in order: the GitHub CLI's login for that host, then
 * GH_TOKEN / GITHUB_TOKEN (only for api.github.com, or for DROVER_GITHUB_API_URL when it is set),
 * then the token the person pasted for exactly that API URL. A token is only ever handed out for
 * the API it belongs to.
 */
export class ForgeTokens {
  private readonly cache = new Map<string, { resolved: ResolvedToken | null; at: number }>();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly vault: TokenVault,
    private readonly readGh: GhTokenReader = readGhToken,
  ) {}

  async resolve(apiUrl: string): Promise<ResolvedToken | null> {
    const cached = this.cache.get(apiUrl);
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.resolved;
    const resolved = await this.lookUp(apiUrl);
    this.cache.set(apiUrl, { resolved, at: Date.now() });
    return resolved;
  }

  /** The token was refused or replaced: look again next time. */
  forget(apiUrl: string): void {
    this.cache.delete(apiUrl);
  }

  store(apiUrl: string, token: string | null): void {
    this.vault.write(apiUrl, token);
    this.forget(apiUrl);
  }

  private async lookUp(apiUrl: string): Promise<ResolvedToken | null> {
    const fromGh = await this.readGh(ghHostnameOf(apiUrl), this.env);
    if (fromGh) return { token: fromGh, source: 'gh-cli' };
    const envApi = this.env.DROVER_GITHUB_API_URL?.replace(/\/+$/, '') || GITHUB_API_URL;
    const fromEnv = this.env.GH_TOKEN || this.env.GITHUB_TOKEN;
    if (fromEnv && apiUrl === envApi) return { token: fromEnv.trim(), source: 'environment' };
    const stored = this.vault.read(apiUrl);
    return stored ? { token: stored, source: 'stored' } : null;
  }
}
