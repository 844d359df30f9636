import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeIssues } from '../../../shared/validationIssues';
import { connectToDrover } from '../socketClient';
import { MCP_TOOLS, type AgentIdentity } from './mcpTools';

/**
 * `drover mcp`: the stdio MCP server agent CLIs launch. It knows its agent and project from the env
 * Drover puts in agent terminals, and talks to the running Drover over the local socket.
 */
export async function runMcpServer(env: NodeJS.ProcessEnv, version: string): Promise<void> {
  const socketPath = env.DROVER_SOCKET;
  const projectId = env.DROVER_PROJECT_ID;
  if (!socketPath || !projectId) {
    throw new Error('drover mcp runs inside a Drover agent terminal: DROVER_SOCKET and DROVER_PROJECT_ID must be set.');
  }
  const me: AgentIdentity = { projectId, agentId: env.DROVER_AGENT_ID || null };
  const client = await connectToDrover(socketPath);
  const server = new Server({ name: 'drover', version }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: MCP_TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as { type: 'object'; [key: string]: unknown },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = MCP_TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.MethodNotFound, `Unknown tool: ${request.params.name}. Tools: ${MCP_TOOLS.map((t) => t.name).join(', ')}`);
    const args = tool.input.safeParse(request.params.arguments ?? {});
    if (!args.success) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${describeIssues(args.error, 'arguments')}`);
    try {
      return { content: [{ type: 'text' as const, text: await tool.run(args.data, client.rpc, me) }] };
    } catch (error) {
      return { content: [{ type: 'text' as const, text: error instanceof Error ? error.message : String(error) }], isError: true };
    }
  });

  const transport = new StdioServerTransport();
  transport.onclose = () => client.close();
  await server.connect(transport);
}
