import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readTool } from '../src/main/tools/fs/read'
import { PathJail } from '../src/main/workspace/path-jail'
import { ReadVersions } from '../src/main/workspace/read-versions'
import { median, report } from './measure'

const LINES = 2000

/** Read of a 2,000-line file (jail, numbering, ledger) versus reading its bytes. */
export async function benchRead(workspace: string): Promise<void> {
  const file = path.join(workspace, 'big.ts')
  const line = 'export const value = someFunction(argumentOne, argumentTwo) // a typical line\n'
  await writeFile(file, line.repeat(LINES))
  const ctx = {
    sessionId: 'bench',
    jail: new PathJail(workspace),
    reads: new ReadVersions(),
    signal: new AbortController().signal
  }
  const input = readTool.inputSchema.parse({ path: 'big.ts' })
  const tool = await median(() => readTool.call(input, ctx), 21)
  const bytes = await median(() => readFile(file, 'utf8'), 21)
  report(`Read: ${LINES}-line file, numbered`, tool, 'fs.readFile of the same file', bytes)
}
