/**
 * The seccomp filter every confined command runs under (bubblewrap's `--seccomp`), as classic
 * BPF: a short program the kernel runs on each system call. It allows everything but what would
 * undo the sandbox's other walls from inside:
 *
 * - making a Unix socket (`socket(AF_UNIX)`) unless the policy passes sockets in: connecting to
 *   one needs no write permission on a read-only mount, so a daemon's socket anywhere on the
 *   disk (Docker, an agent, a database) is a way out that no list of paths can close; pairs of
 *   connected stream sockets (`socketpair`) reach nothing and stay allowed, datagram pairs do not
 *   (one can be pointed at a daemon's datagram socket);
 * - io_uring, which makes sockets and opens files without the system calls this filter sees;
 * - pushing keystrokes into the terminal (TIOCSTI, TIOCLINUX), which would run them outside;
 * - the kernel's keyrings, which may hold the person's credentials;
 * - the other ABIs a 64-bit process can call in (x32, and 32-bit compatibility with its
 *   `socketcall`, which hides the socket's family behind a pointer the filter cannot read).
 *
 * A system call of an architecture not listed here kills the process: the numbers differ, and a
 * filter that guessed would be no filter.
 */

/** What the filter refuses beside what it always refuses. */
export interface SeccompPolicy {
  /** Whether a command may make a Unix socket (to reach the ones passed in, or the proxy). */
  unixSockets: boolean
}

/** One classic BPF instruction (`struct sock_filter`), its jumps by label until assembled. */
interface Instruction {
  code: number
  jt: number | string
  jf: number | string
  k: number
  label?: string
}

// linux/filter.h and linux/seccomp.h
const LD_W_ABS = 0x20
const JEQ_K = 0x15
const JSET_K = 0x45
const AND_K = 0x54
const RET_K = 0x06
const RET_ALLOW = 0x7fff0000
const RET_KILL_PROCESS = 0x80000000
const RET_ERRNO = 0x00050000
const EPERM = 1
const ENOSYS = 38

// struct seccomp_data: nr, arch, instruction_pointer, args[6] (little-endian words)
const NR = 0
const ARCH = 4
const argLow = (n: number): number => 16 + 8 * n

const AF_UNIX = 1
const SOCK_TYPE_MASK = 0xf
const SOCK_STREAM = 1
const SOCK_SEQPACKET = 5
const TIOCSTI = 0x5412
const TIOCLINUX = 0x541c
const X32_BIT = 0x40000000

/** System call numbers of one architecture (its `unistd.h`), `null` where it has no such call. */
interface Arch {
  audit: number
  socket: number
  socketpair: number
  socketcall: number | null
  ioctl: number
  keyctl: number[]
  ioUring: number[]
  x32: boolean
}

const X86_64: Arch = {
  audit: 0xc000003e,
  socket: 41,
  socketpair: 53,
  socketcall: null,
  ioctl: 16,
  keyctl: [248, 249, 250],
  ioUring: [425, 426, 427],
  x32: true
}
const I386: Arch = {
  audit: 0x40000003,
  socket: 359,
  socketpair: 360,
  socketcall: 102,
  ioctl: 54,
  keyctl: [286, 287, 288],
  ioUring: [425, 426, 427],
  x32: false
}
const AARCH64: Arch = {
  audit: 0xc00000b7,
  socket: 198,
  socketpair: 199,
  socketcall: null,
  ioctl: 29,
  keyctl: [217, 218, 219],
  ioUring: [425, 426, 427],
  x32: false
}
const ARM: Arch = {
  audit: 0x40000028,
  socket: 281,
  socketpair: 288,
  socketcall: 102,
  ioctl: 54,
  keyctl: [309, 310, 311],
  ioUring: [425, 426, 427],
  x32: false
}

/** The ABIs a process of each Node architecture can make system calls in. */
const ABIS: Record<string, Arch[]> = { x64: [X86_64, I386], arm64: [AARCH64, ARM] }

/** Whether this machine's architecture has a filter; where it has none, nothing is confined. */
export function seccompSupported(arch: string = process.arch): boolean {
  return arch in ABIS
}

/**
 * The filter for `policy` on `arch` (Node's `process.arch`), as the bytes of a
 * `struct sock_filter` array, which is what bubblewrap's `--seccomp FD` reads.
 */
export function seccompFilter(policy: SeccompPolicy, arch: string = process.arch): Buffer {
  const abis = ABIS[arch]
  if (!abis) throw new Error(`there is no seccomp filter for the ${arch} architecture`)
  const program: Instruction[] = [{ code: LD_W_ABS, jt: 0, jf: 0, k: ARCH }]
  abis.forEach((abi, i) => {
    program.push(jeq(abi.audit, `abi${i}`, 0))
  })
  program.push(ret(RET_KILL_PROCESS))
  abis.forEach((abi, i) => program.push(...abiRules(abi, `abi${i}`, policy)))
  return assemble(program)
}

/** The rules of one ABI, starting at `label`. */
function abiRules(abi: Arch, label: string, policy: SeccompPolicy): Instruction[] {
  const at = (name: string): string => `${label}.${name}`
  const rules: Instruction[] = [{ ...load(NR), label }]
  if (abi.x32) rules.push({ code: JSET_K, jt: at('enosys'), jf: 0, k: X32_BIT })
  for (const nr of abi.ioUring) rules.push(jeq(nr, at('enosys'), 0))
  for (const nr of abi.keyctl) rules.push(jeq(nr, at('eperm'), 0))
  if (abi.socketcall !== null) {
    rules.push(jeq(abi.socketcall, policy.unixSockets ? at('allow') : at('eperm'), 0))
  }
  rules.push(jeq(abi.ioctl, at('ioctl'), 0))
  if (!policy.unixSockets) {
    rules.push(jeq(abi.socket, at('socket'), 0))
    rules.push(jeq(abi.socketpair, at('socketpair'), 0))
  }
  rules.push(ret(RET_ALLOW))
  // ioctl(fd, request): the request is an unsigned int, so its low word is all of it.
  rules.push({ ...load(argLow(1)), label: at('ioctl') })
  rules.push(jeq(TIOCSTI, at('eperm'), 0))
  rules.push(jeq(TIOCLINUX, at('eperm'), at('allow')))
  if (!policy.unixSockets) {
    // socket(domain, …): the domain is an int, so its low word is all of it.
    rules.push({ ...load(argLow(0)), label: at('socket') })
    rules.push(jeq(AF_UNIX, at('eperm'), at('allow')))
    // socketpair(domain, type, …): a Unix pair only of connected kinds that cannot be re-aimed.
    rules.push({ ...load(argLow(0)), label: at('socketpair') })
    rules.push(jeq(AF_UNIX, 0, at('allow')))
    rules.push(load(argLow(1)))
    rules.push({ code: AND_K, jt: 0, jf: 0, k: SOCK_TYPE_MASK })
    rules.push(jeq(SOCK_STREAM, at('allow'), 0))
    rules.push(jeq(SOCK_SEQPACKET, at('allow'), at('eperm')))
  }
  // Every jump is forward (classic BPF has no other), so the blocks above end down here.
  rules.push({ ...ret(RET_ALLOW), label: at('allow') })
  rules.push({ ...ret(RET_ERRNO | EPERM), label: at('eperm') })
  rules.push({ ...ret(RET_ERRNO | ENOSYS), label: at('enosys') })
  return rules
}

function load(offset: number): Instruction {
  return { code: LD_W_ABS, jt: 0, jf: 0, k: offset }
}

function ret(value: number): Instruction {
  return { code: RET_K, jt: 0, jf: 0, k: value }
}

function jeq(value: number, jt: number | string, jf: number | string): Instruction {
  return { code: JEQ_K, jt, jf, k: value }
}

/** Resolves labels to forward offsets (BPF jumps only forward, at most 255) and packs it. */
function assemble(program: Instruction[]): Buffer {
  const labels = new Map<string, number>()
  program.forEach((instruction, index) => {
    if (instruction.label) labels.set(instruction.label, index)
  })
  const offset = (from: number, target: number | string): number => {
    if (typeof target === 'number') return target
    const to = labels.get(target)
    if (to === undefined) throw new Error(`seccomp: no label ${target}`)
    const jump = to - from - 1
    if (jump < 0 || jump > 255) throw new Error(`seccomp: ${target} is out of a jump's reach`)
    return jump
  }
  const bytes = Buffer.alloc(program.length * 8)
  program.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8)
    bytes.writeUInt8(offset(index, instruction.jt), index * 8 + 2)
    bytes.writeUInt8(offset(index, instruction.jf), index * 8 + 3)
    bytes.writeUInt32LE(instruction.k >>> 0, index * 8 + 4)
  })
  return bytes
}
