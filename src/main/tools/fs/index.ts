import type { Tool } from '../tool'
import { editTool } from './edit'
import { listDirTool } from './list-dir'
import { readTool } from './read'
import { writeTool } from './write'

/** The file tools: Read, ListDir, Write and Edit, all confined to the project folder. */
export function fsTools(): Tool[] {
  return [readTool, listDirTool, writeTool, editTool]
}
