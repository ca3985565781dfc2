#!/usr/bin/env python3
"""What an idle sandbox window costs: CPU (share of one core) and memory, nothing happening.

Starts the sandbox on each ruleset or file given in a window on an X server of its own (Xvfb),
waits for its first frame (through --trace) and a settling time, then reads the process's CPU
time and resident memory from /proc over a measuring time and prints them. A bound per run
(--max-cpu, percent of a core) makes it a check: the exit code is 1 when a run is over it.

    cargo build --release -p sandbox
    python3 scripts/idle-cpu.py target/release/sandbox chess 'tests/go/random-300-19x19.sgf --ply 300' --max-cpu 2

Needs Xvfb (Debian `xvfb`) and Linux's /proc. Measure a release build: a debug build draws
several times slower.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time


def cpu_seconds(pid):
    """User plus system CPU time of `pid`, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def start_xvfb():
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    number = xvfb.stdout.readline().decode().strip()
    if not number:
        xvfb.kill()
        sys.exit("idle-cpu: Xvfb did not start")
    return xvfb, f":{number}"


def measure(sandbox, what, params, settle, seconds):
    xvfb, display = start_xvfb()
    # --trace writes a new file only: a name in a fresh folder.
    folder = tempfile.mkdtemp(prefix="idle-cpu-")
    trace = os.path.join(folder, "trace.txt")
    env = dict(os.environ, DISPLAY=display)
    env.pop("WAYLAND_DISPLAY", None)
    args = [sandbox, *what.split(), "--trace", trace]
    for p in params:
        args += ["--param", p]
    app = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 120
        while not os.path.exists(trace) or os.path.getsize(trace) == 0:
            if app.poll() is not None:
                sys.exit(f"idle-cpu: the sandbox exited ({app.returncode}) on {what}")
            if time.time() > deadline:
                sys.exit(f"idle-cpu: no first frame of {what} within two minutes")
            time.sleep(0.2)
        time.sleep(settle)
        cpu0, t0 = cpu_seconds(app.pid), time.time()
        time.sleep(seconds)
        cpu1, t1 = cpu_seconds(app.pid), time.time()
        return 100.0 * (cpu1 - cpu0) / (t1 - t0), rss_mib(app.pid)
    finally:
        app.terminate()
        try:
            app.wait(timeout=10)
        except subprocess.TimeoutExpired:
            app.kill()
        xvfb.kill()
        xvfb.wait()
        if os.path.exists(trace):
            os.unlink(trace)
        os.rmdir(folder)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sandbox", help="the sandbox binary (a release build)")
    ap.add_argument("what", nargs="+", help="what to open, one run each (with its own arguments: 'game.sgf --ply 300')")
    ap.add_argument("--param", action="append", default=[], help="NAME=VALUE for every run")
    ap.add_argument("--settle", type=float, default=5.0, help="seconds after the first frame before measuring")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds measured")
    ap.add_argument("--max-cpu", type=float, default=None, help="fail above this share of a core (percent)")
    a = ap.parse_args()
    over = False
    for what in a.what:
        cpu, rss = measure(a.sandbox, what, a.param, a.settle, a.seconds)
        bound = "" if a.max_cpu is None else (" over the bound" if cpu > a.max_cpu else " within the bound")
        over |= a.max_cpu is not None and cpu > a.max_cpu
        print(f"{what}: {cpu:.2f}% of a core over {a.seconds:.0f} s idle, RSS {rss:.0f} MiB{bound}")
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
