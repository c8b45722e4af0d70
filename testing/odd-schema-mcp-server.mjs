// A real MCP server over stdio, for tests only, whose tools' input schemas are hard to read: a
// schema that is itself (`{"type":"object","$ref":"#"}`), a tree whose nodes refer back to the
// root, and one nested `depth` levels deep (the first argument, 10,000 unless told), next to an
// ordinary `echo`. Every tool answers what it was called with, so a test sees which calls got
// through. The JSON-RPC is written by hand: Node's JSON.stringify cannot write the deep schema
// (its own stack runs out), though a server in another language sends it without trouble.
// Started with this Node: `node odd-schema-mcp-server.mjs [depth]`.
import { createInterface } from 'node:readline'

const depth = Number(process.argv[2] ?? 10_000)
const DEEP = '"__deep_schema__"'

function deepSchemaJson(levels) {
  const open = '{"type":"object","properties":{"next":'
  return `${open.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`
}

const tools = [
  {
    name: 'echo',
    description: 'Answers the text it is given.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }
  },
  {
    name: 'self_ref',
    description: 'A tool whose input schema is a reference to itself.',
    inputSchema: { type: 'object', $ref: '#' }
  },
  {
    name: 'tree',
    description: 'A tool whose input is a tree: each child is the same shape as the root.',
    inputSchema: {
      type: 'object',
      properties: { label: { type: 'string' }, child: { $ref: '#' } }
    }
  },
  {
    name: 'deep',
    description: `A tool whose input schema is nested ${depth} levels deep.`,
    inputSchema: JSON.parse(DEEP)
  }
]

function answer(id, result) {
  const json = JSON.stringify({ jsonrpc: '2.0', id, result })
  process.stdout.write(`${json.replace(DEEP, deepSchemaJson(depth))}\n`)
}

function resultOf(method, params) {
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: params?.protocolVersion ?? '2025-06-18',
        capabilities: { tools: {} },
        serverInfo: { name: 'odd-schema', version: '1.0.0' }
      }
    case 'tools/list':
      return { tools }
    case 'tools/call': {
      const args = params?.arguments ?? {}
      const text =
        params?.name === 'echo' ? `echo: ${String(args.text)}` : `${params?.name} was called`
      return { content: [{ type: 'text', text }] }
    }
    default:
      return {}
  }
}

createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return
  const message = JSON.parse(line)
  if (message.id === undefined || message.method === undefined) return
  answer(message.id, resultOf(message.method, message.params))
})
