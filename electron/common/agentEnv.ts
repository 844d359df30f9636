/**
 * The variable of an agent terminal's env that holds its session's proof: a random secret the
 * host made for that session alone, which `drover mcp`, hooks and the `drover` command hand back
 * (`identifyAgent`) to speak as that agent. Gemini CLI withholds from MCP servers and hooks every
 * variable whose name holds TOKEN, SECRET, KEY, AUTH, PASSWORD, CREDENTIAL or PRIVATE, so the
 * name holds none of those, and the value is hex, which none of its secret patterns match.
 */
export const AGENT_PROOF_ENV = 'DROVER_AGENT_PROOF';
