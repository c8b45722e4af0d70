/**
 * The parts of every seatbelt profile that do not depend on the policy: which processes,
 * services, sysctls and devices a confined command may use. seatbelt.ts puts the policy's files,
 * sockets and network around them.
 */

/** `(allow mach-lookup …)` for these global service names. */
export function mach(services: readonly string[]): string {
  return `(allow mach-lookup ${services.map((s) => `(global-name "${s}")`).join(' ')})`
}

/** User and group names (`~`, whoami, id) and power assertions (caffeinate, build tools). */
export const BASE_SERVICES = [
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.PowerManagement.control'
]

/** Name resolution settings and certificate checks, with network on only. */
export const NETWORK_SERVICES = [
  'com.apple.SystemConfiguration.DNSConfiguration',
  'com.apple.SystemConfiguration.configd',
  'com.apple.networkd',
  'com.apple.trustd',
  'com.apple.trustd.agent',
  'com.apple.ocspd',
  'com.apple.bsd.dirhelper',
  'com.apple.system.opendirectoryd.membership'
]

export const DEVICES = [
  '; Devices: /dev/null, the terminal (its own /dev/tty and the ttys a pty gives) and the',
  '; descriptors already open; not serial ports (/dev/tty.*, /dev/cu.*) nor disks.',
  '(allow pseudo-tty)',
  '(allow file-write-data file-ioctl (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$") (literal "/dev/ptmx"))',
  '(allow file-write-data (subpath "/dev/fd"))'
]

const SYSCTL_NAMES = [
  'hw.activecpu',
  'hw.busfrequency_compat',
  'hw.byteorder',
  'hw.cacheconfig',
  'hw.cachelinesize_compat',
  'hw.cpufamily',
  'hw.cpufrequency',
  'hw.cpufrequency_compat',
  'hw.cputype',
  'hw.l1dcachesize_compat',
  'hw.l1icachesize_compat',
  'hw.l2cachesize_compat',
  'hw.l3cachesize_compat',
  'hw.logicalcpu',
  'hw.logicalcpu_max',
  'hw.machine',
  'hw.memsize',
  'hw.model',
  'hw.ncpu',
  'hw.nperflevels',
  'hw.packages',
  'hw.pagesize',
  'hw.pagesize_compat',
  'hw.physicalcpu',
  'hw.physicalcpu_max',
  'hw.tbfrequency_compat',
  'hw.vectorunit',
  'kern.argmax',
  'kern.hostname',
  'kern.maxfilesperproc',
  'kern.maxproc',
  'kern.osproductversion',
  'kern.osrelease',
  'kern.ostype',
  'kern.osvariant_status',
  'kern.osversion',
  'kern.secure_kernel',
  'kern.usrstack64',
  'kern.version',
  'machdep.cpu.brand_string',
  'sysctl.proc_cputype',
  'vm.loadavg'
]

const SYSCTL_PREFIXES = [
  'hw.optional.',
  'hw.perflevel',
  'kern.proc.pgrp.',
  'kern.proc.pid.',
  'net.routetable.'
]

export const PROCESSES = [
  '; Processes: run and fork freely (children inherit this profile); see and signal only',
  '; the processes of this sandbox.',
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  '; libuv (os.cpus) asks the host port for processor information.',
  '(allow mach-host*)',
  '(allow user-preference-read)',
  '; Python multiprocessing locks are POSIX semaphores.',
  '(allow ipc-posix-sem)',
  '(allow iokit-open (iokit-registry-entry-class "RootDomainUserClient"))',
  '; Plain facts about the machine, not the arguments of other processes (kern.procargs2).',
  `(allow sysctl-read ${[
    ...SYSCTL_NAMES.map((n) => `(sysctl-name "${n}")`),
    ...SYSCTL_PREFIXES.map((n) => `(sysctl-name-prefix "${n}")`)
  ].join(' ')})`,
  '; Java reads its CPU type through a sysctl it has to "write".',
  '(allow sysctl-write (sysctl-name "kern.grade_cputype"))'
]
