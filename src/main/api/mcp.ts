import { readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { RpcError } from '../../shared/contract'
import type { SliceHandlers } from '../../shared/contract/handlers'
import type { Services } from '../core'
import { ElicitContentError } from '../mcp/elicitation/elicitation-broker'
import { importMcpServers } from '../mcp/import-config'
import { checkFolder } from '../workspace/check-folder'

/** The MCP servers of a folder as Settings and the window show them, and their requests. */
export function mcpApi({ mcp: manager }: Pick<Services, 'mcp'>): SliceHandlers<'mcp'> {
  const folderOrNull = async (folder: string | undefined): Promise<string | null> =>
    folder ? checkFolder(folder) : null
  const failed = (error: unknown): never => {
    if (error instanceof RpcError) throw error
    throw new RpcError('conflict', error instanceof Error ? error.message : String(error))
  }
  return {
    'mcp.status': async ({ workspace }) => manager.status(await folderOrNull(workspace)),
    'mcp.log': async ({ workspace, name }) => ({
      lines: await manager.log(await folderOrNull(workspace), name)
    }),
    'mcp.restart': async ({ workspace, name }) =>
      manager.restart(await checkFolder(workspace), name).catch(failed),
    'mcp.trust': async ({ workspace, names, trust }) =>
      manager.setTrust(await checkFolder(workspace), names, trust).catch(failed),
    'mcp.signIn': async ({ workspace, name }) => ({
      url: await manager.signIn(await checkFolder(workspace), name).catch(failed)
    }),
    'mcp.signOut': async ({ workspace, name }) =>
      manager.signOut(await checkFolder(workspace), name).catch(failed),
    'mcp.prompt': async ({ workspace, server, prompt, arguments: args }) => ({
      text: await manager
        .prompt(await checkFolder(workspace), server, prompt, args ?? {})
        .catch(failed)
    }),
    // Headless there is no broker: nothing waits, and an answer finds nothing to settle.
    'mcp.elicitation.pending': async ({ workspace }) => ({
      elicitations: manager.elicitation?.pending(await checkFolder(workspace)) ?? []
    }),
    'mcp.elicitation.answer': ({ elicitationId, action, content }) => {
      try {
        return Promise.resolve({
          ok: manager.elicitation?.answer(elicitationId, action, content) ?? false
        })
      } catch (error) {
        if (error instanceof ElicitContentError) throw new RpcError('invalid_input', error.message)
        throw error
      }
    },
    'mcp.import': async ({ path: file, text }) => {
      let source = 'the pasted text'
      let content = text ?? ''
      if (file) {
        const expanded = file.startsWith('~') ? path.join(os.homedir(), file.slice(1)) : file
        source = path.resolve(expanded)
        content = await readFile(source, 'utf8').catch((error: NodeJS.ErrnoException) => {
          throw new RpcError('not_found', `cannot read ${source} (${error.code ?? error.message})`)
        })
      }
      if (!content.trim()) {
        throw new RpcError('invalid_input', 'give the path of a config file, or paste its text')
      }
      try {
        return importMcpServers(content, source)
      } catch (error) {
        throw new RpcError('invalid_input', error instanceof Error ? error.message : String(error))
      }
    }
  }
}
