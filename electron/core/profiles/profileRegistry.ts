import { AgentProfileInputSchema, type AgentProfile, type AgentProfileInput } from '../../../shared/entities/profiles';
import { fail } from '../errors';
import type { DefinitionTable } from '../storage/definitionTable';
import { BUILT_IN_PROFILES } from './builtInProfiles';
import { expandCommand, findExecutable } from './commandLookup';

/** Built-in profiles plus the custom ones stored in the app database. */
export class ProfileRegistry {
  constructor(
    private readonly table: DefinitionTable,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  list(): AgentProfile[] {
    const custom = this.table.definitions().flatMap((definition) => this.parse(definition));
    return [...BUILT_IN_PROFILES.map((p) => this.describe(p, true)), ...custom.map((p) => this.describe(p, false))];
  }

  get(profileId: string): AgentProfile {
    const builtIn = BUILT_IN_PROFILES.find((p) => p.id === profileId);
    if (builtIn) return this.describe(builtIn, true);
    const definition = this.table.definition(profileId);
    const custom = definition && this.parse(definition)[0];
    if (!custom) fail('not-found', `No agent profile with id ${profileId}`);
    return this.describe(custom, false);
  }

  save(profile: AgentProfileInput): AgentProfile {
    if (BUILT_IN_PROFILES.some((p) => p.id === profile.id)) {
      fail('conflict', `${profile.id} is a built-in profile; save your changes under another id.`);
    }
    this.table.save(profile.id, JSON.stringify(profile));
    return this.describe(profile, false);
  }

  remove(profileId: string): void {
    if (BUILT_IN_PROFILES.some((p) => p.id === profileId)) fail('conflict', `${profileId} is a built-in profile and cannot be deleted.`);
    if (!this.table.remove(profileId)) fail('not-found', `No agent profile with id ${profileId}`);
  }

  private parse(definition: string): AgentProfileInput[] {
    const parsed = AgentProfileInputSchema.safeParse(withCurrentIntegrationName(JSON.parse(definition)));
    return parsed.success ? [parsed.data] : [];
  }

  private describe(profile: AgentProfileInput, builtIn: boolean): AgentProfile {
    const command = expandCommand(profile.command, this.env);
    const found = findExecutable(command, this.env);
    return {
      ...profile,
      builtIn,
      unavailableReason: found ? null : `${command} is not installed or not on PATH (${this.env.PATH ?? 'PATH is empty'}).`,
    };
  }
}

/** Profiles saved before the integrations were named after their CLI keep working. */
const RENAMED_INTEGRATIONS: Record<string, string> = { 'claude-hooks': 'claude', 'codex-notify': 'codex' };

function withCurrentIntegrationName(stored: unknown): unknown {
  if (typeof stored !== 'object' || stored === null) return stored;
  const { integration } = stored as { integration?: unknown };
  const renamed = typeof integration === 'string' ? RENAMED_INTEGRATIONS[integration] : undefined;
  return renamed ? { ...stored, integration: renamed } : stored;
}
