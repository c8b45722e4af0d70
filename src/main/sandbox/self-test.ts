import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { ConfinementPolicy } from './policy'
import type { Wrapped } from './bwrap'

/** How a backend turns a command into its confined form under a policy. */
export type Wrap = (policy: ConfinementPolicy, cwd: string, file: string, args: string[]) => Wrapped

const TEST_TIMEOUT_MS = 15_000

/**
 * Proves the sandbox holds before Shell trusts it: inside it, a write outside the project folder
 * must not reach the disk, a planted secret must not be read, and (network off) a listener on
 * the host's 127.0.0.1 must not be reached. Returns null when all three hold, else why not.
 */
export async function selfTest(wrap: Wrap, home: string = os.homedir()): Promise<string | null> {
  // Resolved: on macOS the temp folder is under /var, a link seatbelt's rules cannot match by.
  const base = realpathSync.native(await mkdtemp(path.join(os.tmpdir(), 'mecatl-sandbox-test-')))
  const listener = net.createServer((socket) => socket.end('reached\n'))
  try {
    const workspace = path.join(base, 'project')
    const secrets = path.join(base, 'secrets')
    await mkdir(workspace)
    await mkdir(secrets)
    const token = randomBytes(12).toString('hex')
    await writeFile(path.join(secrets, 'id_test'), `${token}\n`)
    // Outside every writable path and off /tmp (which is the sandbox's own): the home directory.
    const outside = path.join(home, `.mecatl-sandbox-probe-${token}`)
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    const port = (listener.address() as net.AddressInfo).port
    const policy: ConfinementPolicy = {
      workspace,
      writable: [],
      readable: [],
      denyRead: [secrets],
      network: 'off'
    }
    const probe = [
      `touch ${quote(outside)} 2>/dev/null && echo wrote-outside`,
      `cat ${quote(path.join(secrets, 'id_test'))} 2>/dev/null`,
      `echo inside > ${quote(path.join(workspace, 'probe'))} && echo wrote-inside`,
      `${quote(process.execPath)} -e ${quote(connectScript(port))} 2>/dev/null`
    ].join('; ')
    const { file, args } = wrap(policy, workspace, '/bin/sh', ['-c', probe])
    const run = await runFor(file, args, TEST_TIMEOUT_MS)
    const wroteOutside = existsSync(outside)
    if (wroteOutside) await rm(outside, { force: true })
    if (run.error) return `the sandbox did not start: ${run.error}`
    if (run.code !== 0 && !run.output.includes('wrote-inside')) {
      return `the sandbox did not start (exit ${run.code}): ${run.output.trim().slice(0, 300) || 'no output'}`
    }
    if (wroteOutside || run.output.includes('wrote-outside'))
      return 'a write outside the project folder reached the disk'
    if (run.output.includes(token)) return 'a denied secret file could be read'
    if (!run.output.includes('wrote-inside')) return 'the project folder could not be written'
    if (run.output.includes('reached'))
      return 'a listener on 127.0.0.1 was reached with network off'
    return null
  } finally {
    listener.close()
    await rm(base, { recursive: true, force: true })
  }
}

function connectScript(port: number): string {
  return `const s=require('net').connect(${port},'127.0.0.1');s.on('data',d=>{process.stdout.write(String(d));process.exit(0)});s.on('error',()=>process.exit(0));setTimeout(()=>process.exit(0),3000)`
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

async function runFor(
  file: string,
  args: string[],
  timeoutMs: number
): Promise<{ code: number | null; output: string; error: string | null }> {
  return new Promise((resolve) => {
    let output = ''
    let child
    try {
      child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    } catch (error) {
      resolve({ code: null, output, error: String(error) })
      return
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')))
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ code: null, output, error: error.message })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output, error: null })
    })
  })
}
