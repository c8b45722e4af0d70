// A classic-BPF interpreter for the seccomp filter's unit tests: it runs the program the kernel
// would run, on a `struct seccomp_data` the test writes, so each refusal is checked as an
// outcome (the action returned) rather than as the program's text.

/** One system call as the kernel hands it to a seccomp filter. */
export interface SyscallData {
  nr: number
  arch: number
  args?: (number | bigint)[]
}

/** What the filter decided: allow, an errno, or kill. */
export type Verdict = { action: 'allow' } | { action: 'errno'; errno: number } | { action: 'kill' }

/** Runs `filter` (the bytes of a `struct sock_filter` array) on one call. */
export function runSeccomp(filter: Buffer, call: SyscallData): Verdict {
  const data = Buffer.alloc(64)
  data.writeUInt32LE(call.nr >>> 0, 0)
  data.writeUInt32LE(call.arch >>> 0, 4)
  ;(call.args ?? []).forEach((arg, i) =>
    data.writeBigUInt64LE(BigInt.asUintN(64, BigInt(arg)), 16 + 8 * i)
  )
  let a = 0
  let pc = 0
  const count = filter.length / 8
  for (let steps = 0; steps < 4096; steps++) {
    if (pc < 0 || pc >= count) throw new Error(`the filter ran off its end at ${pc}`)
    const code = filter.readUInt16LE(pc * 8)
    const jt = filter.readUInt8(pc * 8 + 2)
    const jf = filter.readUInt8(pc * 8 + 3)
    const k = filter.readUInt32LE(pc * 8 + 4)
    switch (code) {
      case 0x20: // ld [k]
        if (k % 4 !== 0 || k + 4 > 64) throw new Error(`bad load offset ${k}`)
        a = data.readUInt32LE(k)
        pc += 1
        break
      case 0x54: // and #k
        a = (a & k) >>> 0
        pc += 1
        break
      case 0x15: // jeq #k
        pc += 1 + (a === k ? jt : jf)
        break
      case 0x35: // jge #k
        pc += 1 + (a >= k ? jt : jf)
        break
      case 0x45: // jset #k
        pc += 1 + ((a & k) !== 0 ? jt : jf)
        break
      case 0x05: // ja k
        pc += 1 + k
        break
      case 0x06: // ret #k
        return verdict(k)
      default:
        throw new Error(`unknown instruction 0x${code.toString(16)} at ${pc}`)
    }
  }
  throw new Error('the filter did not return')
}

function verdict(k: number): Verdict {
  const action = (k & 0xffff0000) >>> 0
  if (action === 0x7fff0000) return { action: 'allow' }
  if (action === 0x00050000) return { action: 'errno', errno: k & 0xffff }
  if (action === 0x80000000 || action === 0) return { action: 'kill' }
  throw new Error(`unexpected action 0x${k.toString(16)}`)
}
