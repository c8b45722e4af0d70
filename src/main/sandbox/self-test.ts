import { randomBytes } from 'node:crypto'
import { existsSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { sandboxDefaults } from '../../shared/sandbox'
import { confinementPolicy, type ConfinementPolicy, type PolicyInputs } from './policy'
import type { Wrapped } from './bwrap'
import { runProbe } from './probe-run'

/** How a backend turns a command into its confined form under a policy. */
export type Wrap = (policy: ConfinementPolicy, cwd: string, file: string, args: string[]) => Wrapped

const TEST_TIMEOUT_MS = 15_000
const STOPPED = 'the self-test was not run: Mecatl was stopping'

/**
 * Proves the sandbox holds before Shell trusts it, by what a command inside can do, not by its
 * arguments: a write outside the project folder must not reach the disk, a file planted in the
 * home directory must not be read, the command must hold no capability (root's included), and
 * with network off neither a listener on the host's 127.0.0.1 nor a Unix socket inside the
 * project folder may be reached. Returns null when all of it holds, else why not. Once `signal`
 * has aborted (its core is stopping) no probe is started, and the answer is not a pass.
 */
export async function selfTest(
  wrap: Wrap,
  inputs: Omit<PolicyInputs, 'workspace' | 'settings'>,
  signal?: AbortSignal
): Promise<string | null> {
  const home = inputs.home ?? os.homedir()
  // Resolved: on macOS the temp folder is under /var, a link seatbelt's rules cannot match by.
  const base = realpathSync.native(await mkdtemp(path.join(os.tmpdir(), 'mecatl-sandbox-test-')))
  const listener = net.createServer((socket) => socket.end('reached\n'))
  const daemon = net.createServer((socket) => socket.end('reached-unix\n'))
  const token = randomBytes(12).toString('hex')
  // Outside every writable path and off /tmp (which is the sandbox's own): the home directory.
  const outside = path.join(home, `.mecatl-sandbox-probe-${token}`)
  const planted = path.join(home, `.mecatl-sandbox-secret-${token}`)
  try {
    const workspace = path.join(base, 'project')
    await mkdir(workspace)
    const socketPath = path.join(workspace, 'probe.sock')
    await writeFile(planted, `${token}\n`, { mode: 0o600 })
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))
    await new Promise<void>((resolve) => daemon.listen(socketPath, resolve))
    const port = (listener.address() as net.AddressInfo).port
    // Not begun once its core is stopping; one begun is run to its end, since a sandbox killed
    // halfway leaves what runs inside it behind.
    if (signal?.aborted) return STOPPED
    const policy = confinementPolicy(
      {
        ...inputs,
        workspace,
        settings: { ...sandboxDefaults, home_defaults: false, readable: [nodeFolder()] }
      },
      'off'
    )
    const node = [...nodeRunner()].map(quote).join(' ')
    const probe = [
      `touch ${quote(outside)} 2>/dev/null`,
      `cat ${quote(planted)} 2>/dev/null`,
      `echo inside > ${quote(path.join(workspace, 'probe'))} && echo wrote-inside`,
      `grep '^CapEff:' /proc/self/status`,
      `${node} -e ${quote(connectScript(port))} 2>/dev/null`,
      `${node} -e ${quote(connectScript(socketPath))} 2>/dev/null`
    ].join('; ')
    const { file, args } = wrap(policy, workspace, '/bin/sh', ['-c', probe])
    const run = await runProbe(file, args, { timeoutMs: TEST_TIMEOUT_MS })
    const wroteOutside = existsSync(outside)
    if (run.error) return `the sandbox did not start: ${run.error}`
    if (run.code !== 0 && !run.output.includes('wrote-inside')) {
      return `the sandbox did not start (exit ${run.code}): ${run.output.trim().slice(0, 300) || 'no output'}${startHint(run.output)}`
    }
    if (wroteOutside) return 'a write outside the project folder reached the disk'
    if (run.output.includes(token)) return 'a file planted in the home directory could be read'
    if (!run.output.includes('wrote-inside')) return 'the project folder could not be written'
    const caps = /^CapEff:\s*([0-9a-f]+)/m.exec(run.output)?.[1]
    if (caps !== undefined && !/^0+$/.test(caps))
      return `a confined command kept capabilities (CapEff ${caps})`
    if (run.output.includes('reached-unix'))
      return 'a Unix socket in the project folder was reached with network off'
    if (run.output.includes('reached'))
      return 'a listener on 127.0.0.1 was reached with network off'
    return null
  } finally {
    listener.close()
    daemon.close()
    await rm(outside, { force: true })
    await rm(planted, { force: true })
    await rm(base, { recursive: true, force: true })
  }
}

/**
 * What to do when bubblewrap could not make the sandbox's namespaces: every command needs a user
 * namespace (so it holds no capability, as root too), and some systems forbid them.
 */
function startHint(output: string): string {
  if (!/namespace|uid map|setting up uid|Operation not permitted|No space left/i.test(output))
    return ''
  return '. Commands run in a user namespace of their own, which this system refuses: allow user namespaces (sysctl kernel.unprivileged_userns_clone=1 or user.max_user_namespaces above 0; on Ubuntu, an AppArmor profile for bwrap), or choose kind: none to run commands unconfined'
}

/** The folder of the program that runs the probes (Node, or Electron as Node). */
function nodeFolder(): string {
  return path.dirname(process.execPath)
}

function nodeRunner(): string[] {
  if (!process.versions.electron) return [process.execPath]
  return ['/usr/bin/env', 'ELECTRON_RUN_AS_NODE=1', process.execPath]
}

/** A Node one-liner that prints what answers at a TCP port on 127.0.0.1, or a socket path. */
function connectScript(target: number | string): string {
  const where = typeof target === 'number' ? `${target},'127.0.0.1'` : JSON.stringify(target)
  return `const s=require('net').connect(${where});s.on('data',d=>{process.stdout.write(String(d));process.exit(0)});s.on('error',()=>process.exit(0));setTimeout(()=>process.exit(0),3000)`
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}
