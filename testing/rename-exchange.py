"""Swaps two paths again and again with renameat2(RENAME_EXCHANGE), for race tests.

Node cannot call renameat2, and only an atomic exchange makes the race a test needs: at every
instant each name exists, one a real directory, the other a link, so a tool that checks a path
and then opens it by name can be sent through the link. Usage:

    rename-exchange.py A B MAX_SWAPS

Prints `ready` once the first swap has worked, then swaps until MAX_SWAPS, SIGTERM or the end
of the process that started it, and prints `swaps N` before it exits. Exits with 2 and a reason when renameat2 is unavailable
(no such libc function, or a filesystem that does not support the exchange).
"""

import ctypes
import os
import signal
import sys

AT_FDCWD = -100
RENAME_EXCHANGE = 2


def main() -> int:
    first, second, limit = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2]), int(sys.argv[3])
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        renameat2 = libc.renameat2
    except AttributeError:
        print("renameat2 is not in this C library (glibc 2.28 or later has it)", file=sys.stderr)
        return 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    renameat2.restype = ctypes.c_int

    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    parent = os.getppid()
    swaps = 0
    while swaps < limit and not stopping:
        if swaps % 4096 == 0 and os.getppid() != parent:
            break
        if renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE) != 0:
            errno = ctypes.get_errno()
            print(f"renameat2(RENAME_EXCHANGE) failed: {os.strerror(errno)}", file=sys.stderr)
            return 2
        swaps += 1
        if swaps == 1:
            print("ready", flush=True)
    print(f"swaps {swaps}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
