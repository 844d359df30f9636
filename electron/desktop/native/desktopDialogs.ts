import { dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';
import type { RestartAnswer, RestartQuestion, UpdatePrompts } from '../updateFlow';

/** A message box over the window when there is one (modal to it), else on its own. */
async function showMessage(window: BrowserWindow | null, options: MessageBoxOptions): Promise<number> {
  const usable = window && !window.isDestroyed() ? window : null;
  const { response } = usable ? await dialog.showMessageBox(usable, options) : await dialog.showMessageBox(options);
  return response;
}

export async function showInfo(window: BrowserWindow | null, message: string, detail: string): Promise<void> {
  await showMessage(window, { type: 'info', message, detail, buttons: ['OK'] });
}

export async function showError(window: BrowserWindow | null, message: string, detail: string): Promise<void> {
  await showMessage(window, { type: 'error', message, detail, buttons: ['OK'] });
}

/** A question with a yes and a no button; no (the default, and Escape) unless the person says yes. */
export async function askYesNo(window: BrowserWindow | null, message: string, detail: string, yes: string, no = 'Cancel'): Promise<boolean> {
  return (await showMessage(window, { type: 'question', message, detail, buttons: [yes, no], defaultId: 1, cancelId: 1 })) === 0;
}

const ANSWERS: readonly RestartAnswer[] = ['restart', 'later'];

/** The update flow's prompts as native dialogs, and its progress on the window's taskbar entry. */
export function updatePrompts(window: () => BrowserWindow | null): UpdatePrompts {
  return {
    askToRestart: async (question: RestartQuestion) => {
      const response = await showMessage(window(), {
        type: 'question',
        message: question.message,
        detail: question.detail,
        buttons: ['Restart now', 'Later'],
        defaultId: ANSWERS.indexOf(question.defaultAnswer),
        cancelId: ANSWERS.indexOf('later'),
      });
      return ANSWERS[response] ?? 'later';
    },
    tellUpToDate: (version) => void showInfo(window(), 'Drover is up to date', `Drover ${version} is the newest version.`),
    tellFailed: (message) => void showError(window(), 'Update failed', message),
    showProgress: (fraction) => {
      const current = window();
      if (current && !current.isDestroyed()) current.setProgressBar(fraction ?? -1);
    },
  };
}
