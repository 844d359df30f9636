import { PassThrough, type Readable, type Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { READ_ONLY_DROVER_TOOLS } from '../../../shared/droverTools';
import { MAX_REQUEST_FRAME_BYTES } from '../../../shared/protocol';
import { describeIssues } from '../../common/validationIssues';
import { LineReader } from '../../wire/lineFraming';
import { agentCredentials } from '../agentCredentials';
import { DroverLink } from '../socketClient';
import { resolveProject } from '../taskCommands';
import { MCP_TOOLS, type AgentIdentity } from './mcpTools';
import { CHANNEL_CAPABILITY, CHANNEL_INSTRUCTIONS, CHANNEL_NOTIFICATION, relayChannelWakes, takesChannelEvents } from './wakeChannel';

export interface McpServerOptions {
  /** The running Drover's socket, found as every command finds it. */
  socketPath: string;
  /** `--project ID|PATH`; else DROVER_PROJECT_ID; else the registered project holding `cwd`. */
  project: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  stdin?: Readable;
  stdout?: Writable;
  /** How often to check that the client that started us is still our parent. */
  parentCheckMs?: number;
}

/**
 * The MCP client's messages, one JSON-RPC message a line, with each line capped: a longer one is
 * answered with a JSON-RPC error and skipped, and the server keeps serving.
 */
function boundedLines(input: Readable, output: Writable, log: (line: string) => void): PassThrough {
  const lines = new PassThrough();
  const reader = new LineReader(
    MAX_REQUEST_FRAME_BYTES,
    (line) => lines.write(Buffer.concat([line, Buffer.from('\n')])),
    () => {
      const message = `Message too large: a line holds at most ${MAX_REQUEST_FRAME_BYTES} bytes; it was skipped.`;
      log(message);
      output.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message } })}\n`);
    },
  );
  input.on('data', (chunk: Buffer | string) => reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
  return lines;
}

/**
 * `drover mcp`: the stdio MCP server agent CLIs launch. It finds the running Drover as every
 * command does, knows its agent from the env Drover puts in agent terminals, reconnects when
 * Drover restarts, and ends with its client: when stdin ends or the process that started it exits.
 * Resolves with the exit code once it is done.
 */
export async function runMcpServer(options: McpServerOptions): Promise<number> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = (line: string) => process.stderr.write(`drover mcp: ${line}\n`);
  const link = new DroverLink(options.socketPath, agentCredentials(options.env));
  let me: AgentIdentity;
  try {
    const identity = await link.open();
    // An agent's tools act in its own project; the person's in the project they name or stand in.
    const project = identity && !options.project ? identity.project : await resolveProject(link, options.project, { env: options.env, cwd: options.cwd });
    me = { projectId: project.id, agentId: identity?.agentId ?? null };
  } catch (error) {
    link.close();
    throw error;
  }
  const server = new Server(
    { name: 'drover', version: options.version },
    // A channel for wakes, for a CLI that takes its events (Claude Code): see wakeChannel.ts.
    { capabilities: { tools: {}, experimental: { [CHANNEL_CAPABILITY]: {} } }, instructions: CHANNEL_INSTRUCTIONS },
  );
  let channel: { stop(): void } | null = null;
  server.oninitialized = () => {
    // Only an agent has wakes; the person's own `drover mcp` has none to take.
    if (!me.agentId || !takesChannelEvents(server.getClientCapabilities())) return;
    channel = relayChannelWakes(link, ({ content, meta }) => server.notification({ method: CHANNEL_NOTIFICATION, params: { content, meta } }), log);
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: MCP_TOOLS.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: z.toJSONSchema(tool.input, { io: 'input' }) as { type: 'object'; [key: string]: unknown },
      // What the agent CLIs' approval also goes by: the readers change nothing but the caller's own inbox.
      annotations: { readOnlyHint: READ_ONLY_DROVER_TOOLS.includes(tool.name), openWorldHint: false },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = MCP_TOOLS.find((candidate) => candidate.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.MethodNotFound, `Unknown tool: ${request.params.name}. Tools: ${MCP_TOOLS.map((t) => t.name).join(', ')}`);
    const args = tool.input.safeParse(request.params.arguments ?? {});
    if (!args.success) throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${describeIssues(args.error, 'arguments')}`);
    try {
      return { content: [{ type: 'text' as const, text: await tool.run(args.data, link, me) }] };
    } catch (error) {
      return { content: [{ type: 'text' as const, text: error instanceof Error ? error.message : String(error) }], isError: true };
    }
  });

  const transport = new StdioServerTransport(boundedLines(stdin, stdout, log), stdout);
  const parent = process.ppid;
  return new Promise<number>((resolve) => {
    let done = false;
    const end = (why: string | null) => {
      if (done) return;
      done = true;
      clearInterval(parentCheck);
      channel?.stop();
      if (why) log(why);
      link.close();
      stdin.pause();
      void server.close().finally(() => resolve(0));
    };
    // Reparented: the client died without closing our stdin (a grandchild may still hold it).
    const parentCheck = setInterval(() => {
      if (process.ppid !== parent) end('the client that started drover mcp has exited; stopping');
    }, options.parentCheckMs ?? 1000);
    parentCheck.unref();
    stdin.once('end', () => end(null));
    stdin.once('close', () => end(null));
    transport.onclose = () => end(null);
    server.connect(transport).catch((error: unknown) => end(`could not start: ${error instanceof Error ? error.message : String(error)}`));
  });
}
