/** Why a name cannot be used for an agent of this project, or null when it can. */
export function agentNameProblem(name: string, takenNames: readonly string[]): string | null {
  const trimmed = name.trim();
  if (!trimmed) return 'Give the agent a name.';
  if (trimmed.length > 60) return 'Keep the name to 60 characters.';
  const lower = trimmed.toLowerCase();
  if (takenNames.some((taken) => taken.toLowerCase() === lower)) return `This project already has an agent named ${trimmed}.`;
  return null;
}
