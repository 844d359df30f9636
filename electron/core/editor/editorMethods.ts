import path from 'node:path';
import type { EditorMethodName } from '../../../shared/contract/editor';
import type { Methods } from '../api';
import type { AppSettingsService } from '../appSettings/appSettingsService';
import { fail } from '../errors';
import type { Locator } from '../locate';
import type { ProjectRegistry } from '../projects/projectRegistry';
import type { ProjectStores } from '../storage/projectStores';
import { isTerminalEditor } from '../../../shared/editor';
import { fileInside, launchEditor } from './editorLauncher';
import type { TerminalEditor } from './terminalEditor';

/**
 * "Open in editor": the file a page points at (a diff's path, a `path:line` in a task's output),
 * resolved against what it is relative to and held to the project, opened with this host's editor
 * command. A page of another machine calls its own host, so the file opens with that machine's editor.
 * A terminal editor opens in a new Shell pane instead (see TerminalEditor).
 */
export function editorMethods(
  projects: ProjectRegistry,
  stores: ProjectStores,
  locator: Locator,
  settings: AppSettingsService,
  terminalEditor: TerminalEditor,
  env: NodeJS.ProcessEnv,
): Methods<EditorMethodName> {
  const baseFolder = (projectId: string, agentId: string | undefined, taskId: string | undefined): string => {
    if (taskId !== undefined) {
      const { store, task } = locator.task(taskId);
      if (store.projectId !== projectId) fail('not-found', `Task ${taskId} is not in this project.`);
      return task.cwd;
    }
    if (agentId !== undefined) {
      const worktree = stores.get(projectId).worktrees.get(agentId);
      if (!worktree) fail('not-found', `Agent ${agentId} of this project has no worktree.`);
      return worktree.path;
    }
    return projects.get(projectId).path;
  };

  return {
    openInEditor: async ({ projectId, file, agentId, taskId, line = 1, column = 1 }) => {
      const project = projects.get(projectId);
      const roots = [project.path, ...stores.get(projectId).worktrees.list().map((worktree) => worktree.path)];
      const asked = path.resolve(baseFolder(projectId, agentId, taskId), file);
      const template = settings.read().settings.editorCommand;
      if (isTerminalEditor(template)) {
        const inside = fileInside(asked, roots);
        const opened = await terminalEditor.open({ projectId, projectPath: project.path, ...inside, line, column, template });
        return { file: inside.file, line, column, ...opened };
      }
      const opened = await launchEditor({ file: asked, line, column, template, roots, env });
      return { ...opened, line, column };
    },
    getTerminalEditor: () => terminalEditor.host(),
  };
}
