"""How many intra-op threads torch gets when ``--threads`` is 0: the cores that are free.

torch defaults to one thread per core. Beside another busy process on the same cores those
threads wait on each other at every parallel region (each op's threads must all finish before
the next op starts, and a thread whose core is taken finishes late), so a step can run many
times slower than on fewer threads (issue 36: 1.45 s -> 38 s on 2 shared cores). The default
therefore counts the cores this process may run on (its CPU affinity: a container's or
``taskset``'s limit, not the machine's) less the ones the load average says are busy, and
never goes below one thread. ``--threads N`` sets the count outright.
"""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the OS reports one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS and Windows have no affinity call
        return max(1, os.cpu_count() or 1)


def load_average() -> float:
    """The busy cores: the 1-minute load average, or the tasks runnable right now (other
    than this one) when more, since the average lags a job started seconds ago by a minute
    (0.0 where the OS reports neither)."""
    try:
        load = max(0.0, os.getloadavg()[0])
    except (AttributeError, OSError):
        load = 0.0
    return max(load, float(runnable_others()))


def runnable_others() -> int:
    """Tasks runnable at this instant, this one excluded (Linux; 0 elsewhere)."""
    try:  # "0.52 0.58 0.59 3/155 1234": the 4th field is runnable/total tasks
        with open("/proc/loadavg") as fh:
            return max(0, int(fh.read().split()[3].split("/")[0]) - 1)
    except (OSError, ValueError, IndexError):
        return 0


def free_threads(cores: int | None = None, load: float | None = None) -> int:
    """The intra-op thread count for ``cores`` usable cores under ``load`` (both measured
    when not given): the cores the load leaves free, rounded, between 1 and ``cores``."""
    cores = usable_cores() if cores is None else max(1, int(cores))
    load = load_average() if load is None else max(0.0, float(load))
    return max(1, min(cores, int(cores - load + 0.5)))


def choose_threads(flag: int) -> tuple[int, str | None]:
    """(the thread count, a note for the log or None) for ``--threads flag`` (0: auto)."""
    if flag > 0:
        return flag, None
    cores, load = usable_cores(), load_average()
    n = free_threads(cores, load)
    if n < cores:
        return n, (f"note: {cores} cores, load average {load:.1f}: torch uses {n} thread"
                   f"{'s' if n > 1 else ''} so it does not fight the other work for cores "
                   "(--threads N sets the count)")
    return n, None
