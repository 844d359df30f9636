import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DROVER_TOOL_NAMES } from '../../shared/droverTools';
import { agentCliBinDir, installedCliVersion } from './agentCliBin';

/** The model the fake provider offers (the Anthropic Messages API, `@ai-sdk/anthropic`, bundled with OpenCode). */
const MODEL = 'claude-sonnet-4-5';
const DROVER_TOOLS = new Set<string>(DROVER_TOOL_NAMES);

/** The name OpenCode 1.18.33 offers a scripted tool by: Drover's as `drover_<tool>`, its shell as `bash`. */
export function opencodeToolName(name: string): string {
  if (DROVER_TOOLS.has(name)) return `drover_${name}`;
  if (name === 'shell') return 'bash';
  return name;
}

/**
 * OpenCode 1.18.33 installs its plugin SDK (`@opencode-ai/plugin`, its own version) from npm into
 * its config folder when it first starts there, which takes it up to a minute. A person's config
 * folder has it after their first start: so does each test's, copied from one installed next to the
 * CLI set (once, from the npm registry, as the CLIs themselves are).
 */
function pluginSdkFolder(): string {
  const version = installedCliVersion('opencode-ai');
  const folder = path.join(agentCliBinDir(), '..', '..', `opencode-config-${version}`);
  if (!fs.existsSync(path.join(folder, 'node_modules', '@opencode-ai', 'plugin', 'package.json'))) {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify({ dependencies: { '@opencode-ai/plugin': version } }, null, 2)}\n`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return folder;
}

/**
 * Prepares an isolated HOME for OpenCode (1.18.33), as a person who set it up would have it:
 * `~/.config/opencode/opencode.json` with one provider, the fake Anthropic server (`baseURL`, an
 * API key, one model), the shell tool asking before it runs (`permission.bash: "ask"`; OpenCode's
 * default lets it run), sharing and updates off. The env keeps it offline: no models.dev catalog
 * fetch, no update check, no LSP download, no default (npm-installed) plugins. OpenCode has no
 * first-run dialog, so a first run is the same HOME. The plugin SDK is in place (see pluginSdkFolder).
 */
export function prepareOpencodeHome(home: string, options: { modelUrl: string }): { env: Record<string, string> } {
  const config = {
    $schema: 'https://opencode.ai/config.json',
    model: `fake/${MODEL}`,
    small_model: `fake/${MODEL}`,
    autoupdate: false,
    share: 'disabled',
    permission: { bash: 'ask' },
    provider: {
      fake: { npm: '@ai-sdk/anthropic', name: 'Fake', options: { baseURL: `${options.modelUrl}/v1`, apiKey: 'sk-ant-fake' }, models: { [MODEL]: { name: 'Fake Sonnet' } } },
    },
  };
  const configDir = path.join(home, '.config', 'opencode');
  fs.cpSync(pluginSdkFolder(), configDir, { recursive: true });
  const file = path.join(configDir, 'opencode.json');
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return {
    env: {
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    },
  };
}
