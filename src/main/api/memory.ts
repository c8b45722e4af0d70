import { RpcError, type CallOutput } from '../../shared/contract'
import type { SliceHandlers } from '../../shared/contract/handlers'
import type { MemoryScope } from '../../shared/memory'
import { personProvenance } from '../../shared/provenance'
import type { Services } from '../core'
import { unmark } from '../store/memory-query'
import {
  projectOwner,
  userOwner,
  type MemoryOwner,
  type MutationRefusal
} from '../store/memory-store'
import { when } from '../tools/memory/memory-text'
import { checkFolder } from '../workspace/check-folder'

const HISTORY_LIMIT = 20
const PREVIEW_CHARS = 200

/**
 * The memory browser's calls. Forget and Undo follow the tools' rule: they apply to the version
 * the person was shown, and are refused when the memory changed since.
 */
export function memoryApi({ store }: Pick<Services, 'store'>): SliceHandlers<'memory'> {
  const memory = store.memory
  const ownerOf = async (scope: MemoryScope, workspace?: string): Promise<MemoryOwner> => {
    if (scope === 'user') return userOwner
    if (!workspace) {
      throw new RpcError('invalid_input', 'project memory belongs to a folder: open one first')
    }
    return projectOwner(await checkFolder(workspace))
  }
  const inspection = (owner: MemoryOwner, name: string): CallOutput<'memory.inspect'> => {
    const detail = memory.inspect(owner, name, HISTORY_LIMIT)
    if (!detail) throw new RpcError('not_found', `there is no memory named "${name}" here`)
    return { ...detail, origin: memory.origin(owner, name) }
  }
  const refused = (refusal: MutationRefusal, name: string): never => {
    if (refusal.reason === 'missing') {
      throw new RpcError('not_found', `there is no memory named "${name}" here any more`)
    }
    if (refusal.reason === 'already-forgotten') {
      throw new RpcError('conflict', `"${name}" is already forgotten; Undo restores it`)
    }
    const { current } = refusal
    throw new RpcError(
      'conflict',
      `"${name}" changed after it was shown (${current.lastKind}, ${when(current.updatedAt)}); it has been reloaded: look at it again, then decide`
    )
  }

  return {
    'memory.search': async ({ scope, workspace, query = '', limit }) => {
      const owner = await ownerOf(scope, workspace)
      if (!query.trim()) {
        const entries = memory.list(owner, limit ?? 200)
        return {
          items: entries.map((entry) => ({
            ...entry,
            snippet: { text: previewOf(entry.content), ranges: [] }
          }))
        }
      }
      // The last word matches as a prefix: the box searches while the person types.
      const { hits } = memory.search(owner, query, { limit: limit ?? 50, prefix: true })
      return { items: hits.map((hit) => ({ ...hit.entry, snippet: unmark(hit.snippet) })) }
    },
    'memory.inspect': async ({ scope, workspace, name }) =>
      inspection(await ownerOf(scope, workspace), name),
    'memory.forget': async ({ scope, workspace, name, expectedVersion }) => {
      const owner = await ownerOf(scope, workspace)
      const result = memory.forget(owner, name, expectedVersion, personProvenance)
      if (!result.ok) return refused(result, name)
      return inspection(owner, name)
    },
    'memory.undo': async ({ scope, workspace, name, expectedVersion }) => {
      const owner = await ownerOf(scope, workspace)
      const result = memory.undo(owner, name, expectedVersion, personProvenance)
      if (!result.ok) return refused(result, name)
      return inspection(owner, name)
    }
  }
}

function previewOf(content: string | null): string {
  if (content === null) return ''
  const line = content.replace(/\s+/g, ' ').trim()
  return line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS - 1)}…` : line
}
