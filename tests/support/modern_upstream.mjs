// An MCP server that speaks ONLY the 2026-07-28 protocol (stateless, server/discover; `initialize` refused),
// for the gateway tests: the official TypeScript SDK's server (@modelcontextprotocol/server 2.x, installed in
// .npm-servers/ by scripts/setup-mcp-servers) in its strict modern-only mode (`legacy: 'reject'`).
//
//     node tests/support/modern_upstream.mjs              # stdio (serveStdio)
//     node tests/support/modern_upstream.mjs --http PORT  # streamable HTTP at http://127.0.0.1:PORT/mcp
//
// Tools: `convert_temperature(celsius)`, `echo(text)` and `add_tool(name, description)` (registers a tool that
// echoes its input and publishes a tools list change to the `subscriptions/listen` streams).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../.npm-servers/package.json', import.meta.url));
const { McpServer, createMcpHandler, fromJsonSchema } = require('@modelcontextprotocol/server');
const { serveStdio } = require('@modelcontextprotocol/server/stdio');

const text = (value) => ({ content: [{ type: 'text', text: String(value) }] });
const added = []; // tools added at run time: every instance (one per HTTP request) registers them
const READ_ONLY = { readOnlyHint: true };
let announce = () => {};

function build() {
    const server = new McpServer(
        { name: 'modern-only-upstream', version: '1.0.0' },
        { capabilities: { tools: { listChanged: true } }, instructions: 'A test server that speaks only MCP 2026-07-28.' }
    );
    server.registerTool(
        'convert_temperature',
        {
            description: 'Convert a temperature from degrees Celsius to degrees Fahrenheit.',
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: { celsius: { type: 'number', description: 'degrees Celsius' } },
                required: ['celsius']
            }),
            annotations: READ_ONLY
        },
        async ({ celsius }) => text(`${celsius} °C = ${(celsius * 9) / 5 + 32} °F`)
    );
    server.registerTool(
        'echo',
        {
            description: 'Echo the given text back.',
            inputSchema: fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
            annotations: READ_ONLY
        },
        async ({ text: value }) => text(value)
    );
    server.registerTool(
        'add_tool',
        {
            description: 'Register a new tool at run time and announce it (subscriptions/listen).',
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: { name: { type: 'string' }, description: { type: 'string' } },
                required: ['name', 'description']
            }),
            annotations: { readOnlyHint: false, destructiveHint: false }
        },
        async ({ name, description }) => {
            added.push({ name, description });
            register(server, { name, description });
            announce(server);
            return text(`added ${name}`);
        }
    );
    for (const tool of added) register(server, tool);
    return server;
}

function register(server, { name, description }) {
    const schema = fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } } });
    server.registerTool(name, { description, inputSchema: schema, annotations: READ_ONLY }, async ({ text: value }) =>
        text(`${name}: ${value}`)
    );
}

const http = process.argv.indexOf('--http');
if (http >= 0) {
    const { serve } = require('@hono/node-server');
    const handler = createMcpHandler(build, { legacy: 'reject' });
    announce = () => handler.notify.toolsChanged();
    serve({ fetch: handler.fetch, port: Number(process.argv[http + 1]), hostname: '127.0.0.1' });
} else {
    announce = (server) => server.sendToolListChanged();
    serveStdio(build, { legacy: 'reject' });
}
