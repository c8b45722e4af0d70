import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { benchMemory } from './memory.bench'
async function main(): Promise<void> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mecatl-bench-')))
  const ws = path.join(dir, 'project'); await mkdir(ws)
  try { await benchMemory(dir, ws) } finally { await rm(dir, { recursive: true, force: true }) }
}
void main()
