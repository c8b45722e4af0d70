import type { Tool } from '../tool'
import { copyTool } from './copy'
import { editTool } from './edit'
import { globTool } from './glob'
import { grepTool } from './grep'
import { listDirTool } from './list-dir'
import { moveTool } from './move'
import { readTool } from './read'
import { removeTool } from './remove'
import { writeTool } from './write'

/**
 * The file tools, all confined to the project folder: Read, ListDir, Glob and Grep look;
 * Write, Edit, Copy, Move and Remove change.
 */
export function fsTools(): Tool[] {
  return [
    copyTool,
    editTool,
    globTool,
    grepTool,
    listDirTool,
    moveTool,
    readTool,
    removeTool,
    writeTool
  ]
}
