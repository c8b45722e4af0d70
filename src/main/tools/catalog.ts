import { z } from 'zod'
import type { ToolDescriptor } from '../../shared/domain'
import type { Tool } from './tool'

/** A tool as the model is told about it: the front of the cached prompt, so it must be stable. */
export interface ModelToolSchema {
  name: string
  description: string
  inputSchema: Record<string, unknown>
}

/** The tools of a session, always listed sorted by name. */
export class Catalog {
  private readonly tools = new Map<string, Tool>()

  constructor(tools: readonly Tool[] = []) {
    for (const tool of tools) this.register(tool)
  }

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) {
      throw new Error(`a tool named ${tool.name} is already registered`)
    }
    this.tools.set(tool.name, tool)
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name)
  }

  list(): Tool[] {
    return [...this.tools.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }

  describe(): ToolDescriptor[] {
    return this.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      readOnly: tool.readOnly,
      ...(tool.readOnlyFor ? { readOnlyByCall: true } : {}),
      source: tool.source,
      capabilities: { ...tool.capabilities }
    }))
  }

  modelSchemas(): ModelToolSchema[] {
    return this.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: jsonSchemaOf(tool.inputSchema)
    }))
  }
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>
  delete json.$schema
  return json
}
