import path from 'node:path'
import { JailRefusal } from '../../../workspace/jailed-dir'
import { errorOutput, type ToolContext, type ToolOutput } from '../../tool'
import { JailScope, type Located } from '../jail-scope'
import type { IgnoreRules } from './ignore-rules'

/** Where a search runs: a directory or one file, relative to `root`. */
export interface SearchScope {
  /** The folder paths are relative to: the project folder, or a spill file's folder. */
  root: string
  kind: 'directory' | 'file'
  /** Relative to `root`, with `/`; `''` is `root` itself. */
  path: string
  /** As the model named it, for messages. */
  shown: string
  /** True for a file in the session's spill directory (outside the project folder). */
  spilled: boolean
}

/**
 * The `path` of a Glob or Grep, through the jail. Grep may also search a file in the session's
 * spill directory, where a cut tool output was saved whole.
 */
export async function resolveScope(
  ctx: ToolContext,
  requested: string | undefined,
  allowFile: boolean
): Promise<{ ok: false; output: ToolOutput } | { ok: true; scope: SearchScope }> {
  const found = await look(ctx, requested ?? '.', allowFile ? 'read' : 'write')
  if (!found.ok) return found
  const located = found.place
  const { shown, state } = located
  switch (state.kind) {
    case 'missing':
    case 'under-file':
      return {
        ok: false,
        output: errorOutput(`\`${shown}\` does not exist; check the name with ListDir`)
      }
    case 'special':
      return {
        ok: false,
        output: errorOutput(
          `\`${shown}\` is not a regular file or directory (a device, socket or FIFO)`
        )
      }
    case 'file':
      if (!allowFile) {
        return {
          ok: false,
          output: errorOutput(`\`${shown}\` is a file; \`path\` must be a directory`)
        }
      }
      break
    case 'directory':
      break
  }
  const kind = state.kind === 'file' ? 'file' : 'directory'
  if (!ctx.jail.contains(located.path)) {
    return {
      ok: true,
      scope: {
        root: path.dirname(located.path),
        kind,
        path: path.basename(located.path),
        shown,
        spilled: true
      }
    }
  }
  const relative = ctx.jail.display(located.path)
  return {
    ok: true,
    scope: {
      root: ctx.jail.root,
      kind,
      path: relative === '.' ? '' : relative,
      shown,
      spilled: false
    }
  }
}

/**
 * Where a path leads and what is there, through the jail's descriptors; nothing stays open, as
 * the search engines walk by path (see walk.ts for how they keep to the folder).
 */
export async function look(
  ctx: ToolContext,
  requested: string,
  access: 'read' | 'write'
): Promise<Located> {
  const scope = new JailScope(ctx)
  try {
    return await scope.locate(requested, access)
  } catch (error) {
    if (error instanceof JailRefusal) {
      return { ok: false, output: errorOutput(ctx.jail.refusalMessage(error)) }
    }
    throw error
  } finally {
    await scope.close()
  }
}

/**
 * A scope that .gitignore excludes would find nothing, which reads as "no matches"; say so
 * instead, and how to search it anyway.
 */
export async function ignoredScope(
  scope: SearchScope,
  rules: IgnoreRules | null
): Promise<ToolOutput | null> {
  if (!rules || scope.spilled) return null
  const parent = scope.path.includes('/') ? scope.path.slice(0, scope.path.lastIndexOf('/')) : ''
  await rules.loadAncestors(parent)
  if (scope.path === '' || !rules.isIgnored(scope.path, scope.kind === 'directory')) return null
  return errorOutput(
    `\`${scope.shown}\` is ignored by .gitignore, so it is not searched; set include_ignored to true to search it`
  )
}
