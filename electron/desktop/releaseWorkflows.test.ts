/**
 * The GitHub workflows cannot run here; what can be checked offline is: they pass the workflow
 * linter of `npm run lint`, and they run what the project promises (the same `npm test` as
 * .ci/run; packages for both architectures, tested as installed, summed and drafted).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../test-support/buildOnce';
import { makeTempDir, removeDir } from '../../test-support/tempDir';

const yaml = createRequire(path.join(REPO_ROOT, 'package.json'))('js-yaml') as { load(text: string): unknown };

interface Step {
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, { 'runs-on': string; container?: string; strategy?: { matrix: Record<string, unknown> }; steps: Step[] }>;
}

function workflow(name: string): Workflow {
  return yaml.load(fs.readFileSync(path.join(REPO_ROOT, '.github', 'workflows', name), 'utf8')) as Workflow;
}

function lintWorkflows(folder?: string) {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'lint-workflows.mjs'), ...(folder ? [folder] : [])], { cwd: REPO_ROOT, encoding: 'utf8' });
}

const scripts = (steps: Step[]) => steps.map((step) => step.run ?? '').join('\n');

describe('the GitHub workflows', () => {
  const broken = makeTempDir('drover-workflows-');
  afterAll(() => removeDir(broken));

  it('pass the workflow linter of npm run lint, which names the file and the problem of a broken one', () => {
    expect(lintWorkflows()).toMatchObject({ status: 0, stderr: '' });
    fs.writeFileSync(path.join(broken, 'ci.yml'), 'name: CI\non: push\njobs:\n  test:\n    runs-on: ubuntu-24.04\n    step:\n      - run: npm test\n');
    const result = lintWorkflows(broken);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${path.join(broken, 'ci.yml')}: /jobs/test: Additional property 'step' is not allowed`);
  });

  it('CI runs .ci/run on push and pull request, in Debian with the lowest Node package.json states, and 24', () => {
    const ci = workflow('ci.yml');
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    const job = ci.jobs.test;
    expect(job?.container).toBe('node:${{ matrix.node }}-bookworm');
    const stated = (JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    const lowest = /^\^(\d+\.\d+)\.0 /.exec(stated)?.[1];
    expect(job?.strategy?.matrix.node).toEqual([lowest, 24]);
    expect(scripts(job?.steps ?? [])).toMatch(/^\.ci\/run$/m);
  });

  it('a v* tag packages both architectures, tests the AppImage and the installed .deb, sums them and drafts the release', () => {
    const release = workflow('release.yml');
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
    const packaging = release.jobs.package;
    expect(packaging?.strategy?.matrix.include).toEqual([
      { arch: 'x64', runner: 'ubuntu-24.04' },
      { arch: 'arm64', runner: 'ubuntu-24.04-arm' },
    ]);
    const run = scripts(packaging?.steps ?? []);
    expect(run).toMatch(/^npm ci$/m);
    expect(JSON.stringify(packaging?.steps)).not.toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
    expect(run).toMatch(/^npm run dist$/m);
    expect(fs.existsSync(path.join(REPO_ROOT, 'e2e', 'electron.spec.ts'))).toBe(true);
    expect(run).toMatch(/DROVER_E2E_APP="\$\(ls "\$PWD"\/release\/\*\.AppImage\)" xvfb-run -a npx playwright test e2e\/electron\.spec\.ts/);
    expect(run).toMatch(/sudo apt-get install -y \.\/release\/\*\.deb\n.*\nDROVER_E2E_APP=\/opt\/Drover\/drover-desktop xvfb-run -a npx playwright test e2e\/electron\.spec\.ts/);
    expect(run).toContain('sha256sum *.AppImage *.deb latest-linux*.yml');

    const draft = scripts(release.jobs.draft?.steps ?? []);
    expect(draft).toContain('sha256sum --check SHA256SUMS');
    expect(draft).toMatch(/gh release create "\$GITHUB_REF_NAME" release\/\* --draft/);
  });
});
