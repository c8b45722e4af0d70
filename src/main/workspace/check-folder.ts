import { realpath, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { RpcError } from '../../shared/contract'

/** A folder the person named: `~` expanded, made absolute, and proved to be a directory. */
export async function checkFolder(requested: string): Promise<string> {
  const expanded = requested.startsWith('~')
    ? path.join(os.homedir(), requested.slice(1))
    : requested
  const absolute = path.resolve(expanded)
  const stats = await stat(absolute).catch(() => null)
  if (!stats) throw new RpcError('not_found', `${absolute} does not exist`)
  if (!stats.isDirectory()) throw new RpcError('invalid_input', `${absolute} is not a folder`)
  return realpath(absolute)
}
