"""The memory budget: what a worker may give one batch of runs, checked before any run starts.

Each algorithm states the peak memory one run needs beyond what its process already holds
(its ``memory(settings, board)``; the GA's runs advanced together, ``memory(settings, board,
runs)`` for a batch). The budget of a worker is, unless set (``--memory-budget SIZE``), the
memory this machine can still give (Linux's MemAvailable, or a lower limit of the process's
control group), shared evenly among the workers, and at most what the process's own address
space limit (``ulimit -v``) leaves. A run whose need exceeds it is refused before any run,
naming the algorithm, the board and the need; the GA's batches hold as many seeds as fit.

SIZE is a number of bytes with an optional unit: kB, MB, GB, TB (powers of 1,000) or KiB, MiB,
GiB, TiB (powers of 1,024), e.g. 4GB, 512MiB.
"""

from __future__ import annotations

import os
import re
import resource
from pathlib import Path

UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
         "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def parse_size(text: str) -> int | None:
    """A SIZE (see the module's docstring) in bytes, or None when it is not one."""
    match = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*", str(text))
    if not match or match[2].lower() not in UNITS:
        return None
    value = int(float(match[1]) * UNITS[match[2].lower()])
    return value if value > 0 else None


def shown(size: float) -> str:
    """A number of bytes for a message: 1.2 GB, 340 MB, 12 kB."""
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{int(size)} bytes"


def _meminfo(key: str) -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            name, _, value = line.partition(":")
            if name == key:
                return int(value.split()[0]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _cgroup_room() -> int | None:
    """What this process's control group still allows (cgroup v2 memory.max less
    memory.current, or v1's limit less its usage), or None without a limit."""
    try:
        own = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in own:
        _, controllers, path = line.split(":", 2)
        base = Path("/sys/fs/cgroup")
        if controllers == "":  # v2
            files = (base / path.lstrip("/") / "memory.max", base / path.lstrip("/") / "memory.current")
        elif "memory" in controllers.split(","):  # v1
            folder = base / "memory" / path.lstrip("/")
            files = (folder / "memory.limit_in_bytes", folder / "memory.usage_in_bytes")
        else:
            continue
        try:
            limit, used = (file.read_text().strip() for file in files)
        except OSError:
            continue
        if limit != "max" and int(limit) < 2**60:
            return max(0, int(limit) - int(used))
    return None


def _address_room() -> int | None:
    """What the process's address space limit (RLIMIT_AS) leaves beyond what it maps now."""
    limit, _ = resource.getrlimit(resource.RLIMIT_AS)
    if limit == resource.RLIM_INFINITY:
        return None
    mapped = _status("VmSize")
    return None if mapped is None else max(0, limit - mapped)


def _status(key: str) -> int | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def available() -> tuple[int | None, str]:
    """The memory this machine can still give, and where that figure comes from; (None, ...)
    where the system does not say."""
    room = _meminfo("MemAvailable")
    if room is None:
        try:
            room = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            return None, "the system does not say how much memory is available"
    source = "the available memory"
    group = _cgroup_room()
    if group is not None and group < room:
        room, source = group, "what the process's control group allows"
    return room, source


def per_worker(workers: int, given: int | None = None) -> tuple[int | None, str]:
    """The budget of one of ``workers`` processes, and how it was set, in words."""
    if given is not None:
        return given, f"--memory-budget {shown(given)}"
    room, source = available()
    if room is None:
        return None, source
    budget, how = room // max(1, workers), f"{source}, {shown(room)}, shared among {workers} workers"
    address = _address_room()
    if address is not None and address < budget:
        budget, how = address, f"what the process's address space limit leaves, {shown(address)}"
    return budget, how
