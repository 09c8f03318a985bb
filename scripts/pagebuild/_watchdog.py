"""No page process outlives its build, however the build ends: normally, on an error, on Ctrl-C, SIGTERM, or
SIGKILL, which no handler ever sees.

A page runs as the leader of its own process group, so what it starts (a subprocess, a pool of workers) belongs
to the group too. For as long as the page is its business, the build holds the write end of a pipe whose read
end the page's process receives. Before any page code runs, the page forks this watchdog: a small process that
only waits for end-of-file on that pipe, which the kernel delivers when the build closes its end or dies, and
then kills the whole group. ``PR_SET_PDEATHSIG`` is no substitute: the page's parent is the fork server, not the
build, and the signal would not reach what the page started.
"""
from __future__ import annotations

import os
import signal


def guard(alive_fd: int) -> int:
    """Fork the watchdog of the calling process's group; return its pid (in the calling process).

    ``alive_fd`` is the read end of the build's pipe; the caller's copy is closed, only the watchdog keeps one.
    """
    group = os.getpgrp()
    if group != os.getpid():  # not a group of its own (setpgid failed): killing the group would hit others
        os.close(alive_fd)
        return 0
    pid = os.fork()
    if pid:
        os.close(alive_fd)
        return pid
    try:  # the watchdog: hold nothing of the page's (its output pipes, its result pipe) but the alive pipe
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, alive_fd)
        os.closerange(alive_fd + 1, os.sysconf("SC_OPEN_MAX"))
        while True:
            try:
                if not os.read(alive_fd, 1):
                    break  # end of file: the build closed its end, or is gone
            except InterruptedError:
                continue
        os.killpg(group, signal.SIGKILL)  # the page and everything it started; this watchdog too
    finally:
        os._exit(0)
