import type { AutomationTrigger } from '../../../shared/automations';
import { shellQuote } from '../../common/shellQuote';
import { fail } from '../errors';

/** The fields of the event that set a rule off, by their template name ("task.label"). */
export type EventFields = Readonly<Record<string, string>>;

const ISSUE_FIELDS = ['issue.number', 'issue.title', 'issue.body', 'issue.url'];

const FIELDS_OF_TRIGGER: Record<AutomationTrigger['kind'], readonly string[]> = {
  schedule: [],
  'task-ended': ['task.label', 'task.exitCode', 'task.tail'],
  'issue-labelled': ISSUE_FIELDS,
  'issue-opened': ISSUE_FIELDS,
  'check-failed': ['check.name', 'check.summary', 'check.url'],
  'changes-requested': ['pr.number', 'pr.title', 'pr.url', 'pr.branch'],
  'agent-failed': ['agent.name', 'agent.exitCode', 'agent.reason'],
};

const FIELD = /\{([^{}\s]*)\}/g;

/** Refuses a template that names a field its trigger's events do not have, and in a command a field written inside quotes. */
export function checkTemplate(template: string, trigger: AutomationTrigger['kind'], where: string): void {
  const quoted = where === 'command' ? fieldInQuotes(template) : null;
  if (quoted !== null) {
    fail('bad-request', `The command has {${quoted}} inside quotes: write it bare, as Drover puts each field in as one quoted word (inside quotes of yours, an issue's title could run as a command).`);
  }
  const known = FIELDS_OF_TRIGGER[trigger];
  for (const [, name] of template.matchAll(FIELD)) {
    if (!known.includes(name!)) {
      const offered = known.length ? `its events have ${known.map((field) => `{${field}}`).join(', ')}` : 'its events have no fields';
      fail('bad-request', `The ${where} names {${name}}, which a ${trigger} trigger does not have: ${offered}.`);
    }
  }
}

/** The first field written inside single or double quotes of a shell command, or null. */
function fieldInQuotes(command: string): string | null {
  let quote: "'" | '"' | null = null;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (char === '\\' && quote !== "'") index++;
    else if (quote === null && (char === "'" || char === '"')) quote = char;
    else if (char === quote) quote = null;
    else if (char === '{' && quote !== null) {
      const field = /^\{([^{}\s]*)\}/.exec(command.slice(index));
      if (field) return field[1]!;
    }
  }
  return null;
}

/**
 * Fills the template with the event's fields (empty for an event without them: a run the person
 * started). In a command each value goes in as one quoted shell word, so a task's output cannot run
 * as part of the command.
 */
export function fillTemplate(template: string, fields: EventFields, as: 'command' | 'text'): string {
  return template.replace(FIELD, (_whole, name: string) => {
    const value = fields[name] ?? '';
    return as === 'command' ? shellQuote(value) : value;
  });
}

/** Too long for a command line: a task's output and an issue's text reach a command through their template fields alone. */
const NOT_IN_ENV = new Set(['task.tail', 'issue.body', 'check.summary']);

/** The event's fields as environment variables of a follow-up task (task.exitCode: DROVER_EVENT_TASK_EXIT_CODE). */
export function eventEnv(fields: EventFields): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([name]) => !NOT_IN_ENV.has(name))
      .map(([name, value]) => [`DROVER_EVENT_${name.replace(/([a-z])([A-Z])/g, '$1_$2').replace(/\./g, '_').toUpperCase()}`, value]),
  );
}
