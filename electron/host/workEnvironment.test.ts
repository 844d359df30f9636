import { describe, expect, it } from 'vitest';
import { workEnvironment } from './workEnvironment';

describe('the environment agents and tasks start from', () => {
  it("is the host's own, without Electron's run-as-Node switch", () => {
    expect(workEnvironment({ HOME: '/home/ada', PATH: '/usr/bin:/bin', ELECTRON_RUN_AS_NODE: '1' })).toEqual({ HOME: '/home/ada', PATH: '/usr/bin:/bin' });
  });

  it("leaves out the identity of the agent terminal the host was started in", () => {
    const inAgentTerminal = { HOME: '/home/ada', DROVER_AGENT_ID: 'a-abc', DROVER_PROJECT_ID: 'p-abc', DROVER_AGENT_PROOF: 'ab12cd34' };
    expect(workEnvironment(inAgentTerminal)).toEqual({ HOME: '/home/ada' });
  });

  it("leaves out what the AppImage's runtime and AppRun point into the mounted image", () => {
    const appDir = '/tmp/.mount_DroverAbC123';
    const fromAppRun = {
      HOME: '/home/ada',
      APPDIR: appDir,
      APPIMAGE: '/home/ada/Apps/Drover-1.2.0-x86_64.AppImage',
      ARGV0: './Drover-1.2.0-x86_64.AppImage',
      OWD: '/home/ada/Apps',
      PATH: `${appDir}:${appDir}/usr/sbin:/home/ada/.local/bin:/usr/bin:/bin`,
      LD_LIBRARY_PATH: `${appDir}/usr/lib`,
      XDG_DATA_DIRS: `${appDir}/usr/share/::/usr/local/share:/usr/share`,
      GSETTINGS_SCHEMA_DIR: `${appDir}/usr/share/glib-2.0/schemas`,
      LANG: 'en_GB.UTF-8',
    };
    expect(workEnvironment(fromAppRun)).toEqual({
      HOME: '/home/ada',
      PATH: '/home/ada/.local/bin:/usr/bin:/bin',
      XDG_DATA_DIRS: ':/usr/local/share:/usr/share',
      LANG: 'en_GB.UTF-8',
    });
  });

  it('keeps an APPDIR that no AppImage set', () => {
    expect(workEnvironment({ APPDIR: '/srv/app', PATH: '/srv/app/bin:/usr/bin' })).toEqual({ APPDIR: '/srv/app', PATH: '/srv/app/bin:/usr/bin' });
  });
});

describe('the environment of a Drover started with npm run (npm run serve, npm start)', () => {
  const person = { HOME: '/home/ada', PATH: '/home/ada/.local/bin:/usr/bin:/bin', EDITOR: 'nano', LANG: 'en_GB.UTF-8' };
  const fromNpm = {
    ...person,
    PATH: `/home/ada/drover/node_modules/.bin:/home/ada/node_modules/.bin:/home/node_modules/.bin:/node_modules/.bin:/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin:${person.PATH}`,
    INIT_CWD: '/home/ada/drover',
    NODE: '/usr/bin/node',
    npm_command: 'run',
    npm_lifecycle_event: 'serve',
    npm_lifecycle_script: 'npm run build --silent 1>&2 && node bin/drover serve',
    npm_config_cache: '/home/ada/.npm',
    npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
    npm_node_execpath: '/usr/bin/node',
    npm_package_name: 'drover',
    npm_package_json: '/home/ada/drover/package.json',
  };

  it("is the person's: without npm's variables and the folders npm put in front of PATH", () => {
    expect(workEnvironment(fromNpm)).toEqual(person);
  });

  it('keeps node_modules/.bin folders that the person put on PATH', () => {
    const own = { ...person, PATH: `/home/ada/tools/node_modules/.bin:${person.PATH}` };
    expect(workEnvironment(own)).toEqual(own);
    expect(workEnvironment({ ...fromNpm, PATH: `/home/ada/drover/node_modules/.bin:${own.PATH}` })).toEqual({ ...own, PATH: `/home/ada/tools/node_modules/.bin:${person.PATH}` });
  });
});
