// The seccomp filter, run call by call in a BPF interpreter: what a command inside the sandbox
// gets back for each way of reaching a Unix socket (or around the filter), on each ABI a 64-bit
// process can call in.
import { describe, expect, it } from 'vitest'
import { runSeccomp, type SyscallData, type Verdict } from '../../../testing/bpf-machine'
import { seccompFilter, seccompSupported } from './seccomp'

const X86_64 = 0xc000003e
const I386 = 0x40000003
const AARCH64 = 0xc00000b7
const ARM = 0x40000028
const AF_UNIX = 1
const AF_INET = 2
const AF_INET6 = 10
const SOCK_STREAM = 1
const SOCK_DGRAM = 2
const SOCK_SEQPACKET = 5
const SOCK_CLOEXEC = 0x80000
const SOCK_NONBLOCK = 0x800

const allow: Verdict = { action: 'allow' }
const eperm: Verdict = { action: 'errno', errno: 1 }
const enosys: Verdict = { action: 'errno', errno: 38 }

const closed = seccompFilter({ unixSockets: false }, 'x64')
const open = seccompFilter({ unixSockets: true }, 'x64')
const closedArm = seccompFilter({ unixSockets: false }, 'arm64')

const call = (filter: Buffer, c: SyscallData): Verdict => runSeccomp(filter, c)

describe('the seccomp filter on x86_64', () => {
  it('refuses making a Unix socket, whatever flags ride with the type', () => {
    for (const type of [SOCK_STREAM, SOCK_DGRAM, SOCK_STREAM | SOCK_CLOEXEC, SOCK_SEQPACKET]) {
      expect(call(closed, { arch: X86_64, nr: 41, args: [AF_UNIX, type, 0] })).toEqual(eperm)
    }
  })

  it('reads the family as the kernel does: an int, whatever the upper word holds', () => {
    // The kernel takes the low 32 bits; a high word cannot smuggle AF_UNIX past the check.
    const smuggled = (1n << 32n) | BigInt(AF_UNIX)
    expect(call(closed, { arch: X86_64, nr: 41, args: [smuggled, SOCK_STREAM, 0] })).toEqual(eperm)
    const inet = (1n << 40n) | BigInt(AF_INET)
    expect(call(closed, { arch: X86_64, nr: 41, args: [inet, SOCK_STREAM, 0] })).toEqual(allow)
  })

  it('leaves other families to the network namespace', () => {
    for (const family of [AF_INET, AF_INET6, 16 /* netlink */]) {
      expect(call(closed, { arch: X86_64, nr: 41, args: [family, SOCK_STREAM, 0] })).toEqual(allow)
    }
  })

  it('allows connected Unix pairs that reach nothing, never a datagram pair that can be re-aimed', () => {
    const pair = (type: number): Verdict =>
      call(closed, { arch: X86_64, nr: 53, args: [AF_UNIX, type, 0, 0] })
    expect(pair(SOCK_STREAM)).toEqual(allow)
    expect(pair(SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK)).toEqual(allow)
    expect(pair(SOCK_SEQPACKET | SOCK_CLOEXEC)).toEqual(allow)
    expect(pair(SOCK_DGRAM)).toEqual(eperm)
    expect(pair(SOCK_DGRAM | SOCK_CLOEXEC)).toEqual(eperm)
    expect(pair(3 /* raw */)).toEqual(eperm)
  })

  it('lets Unix sockets be made when the policy passes some in, and nothing else changes', () => {
    expect(call(open, { arch: X86_64, nr: 41, args: [AF_UNIX, SOCK_STREAM, 0] })).toEqual(allow)
    expect(call(open, { arch: X86_64, nr: 425 })).toEqual(enosys)
    expect(call(open, { arch: X86_64, nr: 16, args: [0, 0x5412] })).toEqual(eperm)
  })

  it('closes io_uring, which makes sockets without socket()', () => {
    for (const nr of [425, 426, 427]) expect(call(closed, { arch: X86_64, nr })).toEqual(enosys)
  })

  it('refuses typing into the terminal, not other ioctls', () => {
    expect(call(closed, { arch: X86_64, nr: 16, args: [0, 0x5412] })).toEqual(eperm)
    expect(call(closed, { arch: X86_64, nr: 16, args: [0, 0x541c] })).toEqual(eperm)
    // The request is an unsigned int: a high word does not hide TIOCSTI.
    expect(call(closed, { arch: X86_64, nr: 16, args: [0, (1n << 32n) | 0x5412n] })).toEqual(eperm)
    expect(call(closed, { arch: X86_64, nr: 16, args: [0, 0x5413 /* TIOCGWINSZ */] })).toEqual(
      allow
    )
  })

  it('refuses the keyrings', () => {
    for (const nr of [248, 249, 250]) expect(call(closed, { arch: X86_64, nr })).toEqual(eperm)
  })

  it('refuses every x32 call, whose numbers would slip past the x86_64 ones', () => {
    const x32 = 0x40000000
    expect(call(closed, { arch: X86_64, nr: x32 | 41, args: [AF_UNIX, SOCK_STREAM, 0] })).toEqual(
      enosys
    )
    expect(call(closed, { arch: X86_64, nr: x32 | 0 })).toEqual(enosys)
  })

  it('allows ordinary calls', () => {
    for (const nr of [0, 1, 2, 57, 59, 60, 231, 257]) {
      expect(call(closed, { arch: X86_64, nr })).toEqual(allow)
    }
  })

  it('judges 32-bit calls by their own numbers, and refuses socketcall, which hides the family', () => {
    expect(call(closed, { arch: I386, nr: 359, args: [AF_UNIX, SOCK_STREAM, 0] })).toEqual(eperm)
    expect(call(closed, { arch: I386, nr: 359, args: [AF_INET, SOCK_STREAM, 0] })).toEqual(allow)
    expect(call(closed, { arch: I386, nr: 102, args: [1, 0] })).toEqual(eperm)
    expect(call(open, { arch: I386, nr: 102, args: [1, 0] })).toEqual(allow)
    expect(call(closed, { arch: I386, nr: 54, args: [0, 0x5412] })).toEqual(eperm)
    expect(call(closed, { arch: I386, nr: 425 })).toEqual(enosys)
    // Number 41 is dup on i386, not socket: it is not mistaken for one.
    expect(call(closed, { arch: I386, nr: 41, args: [AF_UNIX] })).toEqual(allow)
  })

  it('kills a call of an architecture it has no numbers for', () => {
    expect(call(closed, { arch: AARCH64, nr: 198, args: [AF_UNIX] })).toEqual({ action: 'kill' })
    expect(call(closed, { arch: 0x12345678, nr: 0 })).toEqual({ action: 'kill' })
  })
})

describe('the seccomp filter on arm64', () => {
  it('refuses Unix sockets, io_uring, TIOCSTI and keyrings by arm64’s numbers', () => {
    expect(call(closedArm, { arch: AARCH64, nr: 198, args: [AF_UNIX, SOCK_STREAM, 0] })).toEqual(
      eperm
    )
    expect(call(closedArm, { arch: AARCH64, nr: 199, args: [AF_UNIX, SOCK_DGRAM, 0] })).toEqual(
      eperm
    )
    expect(call(closedArm, { arch: AARCH64, nr: 199, args: [AF_UNIX, SOCK_STREAM, 0] })).toEqual(
      allow
    )
    expect(call(closedArm, { arch: AARCH64, nr: 425 })).toEqual(enosys)
    expect(call(closedArm, { arch: AARCH64, nr: 29, args: [0, 0x5412] })).toEqual(eperm)
    expect(call(closedArm, { arch: AARCH64, nr: 219 })).toEqual(eperm)
    // 41 is not socket on arm64.
    expect(call(closedArm, { arch: AARCH64, nr: 41, args: [AF_UNIX] })).toEqual(allow)
    expect(call(closedArm, { arch: ARM, nr: 281, args: [AF_UNIX, SOCK_STREAM, 0] })).toEqual(eperm)
    expect(call(closedArm, { arch: X86_64, nr: 41, args: [AF_UNIX] })).toEqual({ action: 'kill' })
  })

  it('is not made for an architecture it has no numbers for', () => {
    expect(seccompSupported('x64')).toBe(true)
    expect(seccompSupported('arm64')).toBe(true)
    expect(seccompSupported('ppc64')).toBe(false)
    expect(() => seccompFilter({ unixSockets: false }, 'ppc64')).toThrow(/ppc64/)
  })
})
