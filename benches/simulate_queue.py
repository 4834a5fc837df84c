#!/usr/bin/env python3
"""Simulates the distributed runner's work queue on many ranks, from measured subproblem times.

Reads the output of `cargo bench --bench subproblem_times -- N [SAMPLE [SEED]]`
(one line per timed subproblem: index, seconds, ...; a header `# n=N subproblems=S timed=T`).
When only a sample was timed, every other subproblem gets the time of the nearest timed one in
split order (neighbours share their first rows, so their sizes are alike); the times can be
scaled by a growth factor to stand for a larger board (see docs/distributed.md).

The queue is the runner's: subproblems in split order, each handed to the first worker that is
free (a worker is one thread of one rank: RANKS x CORES of them). Rank 0 serves the hand-outs
one at a time, each taking it LATENCY seconds (receiving a result, recording it in the
checkpoint, sending the next subproblem), so a queue of many short subproblems on many workers
is limited by rank 0. Prints, for each rank count, the predicted wall time and
the efficiency (total work / (workers x wall time)).

    benches/simulate_queue.py TIMES.txt [--ranks 16,128,1024] [--cores 1] [--scale 1.0]
                              [--latency 0.00002] [--spare 1]
"""

import argparse
import bisect
import heapq
import sys


def read(path):
    total, timed = None, {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                fields = dict(kv.split("=") for kv in line[1:].split())
                total = int(fields["subproblems"])
                continue
            parts = line.split()
            if len(parts) >= 2:
                timed[int(parts[0])] = float(parts[1])
    if total is None or not timed:
        sys.exit(f"{path}: no header or no timed subproblems")
    return total, timed


def fill(total, timed):
    """Every subproblem's time: measured, or that of the nearest measured one."""
    keys = sorted(timed)
    times = []
    for i in range(total):
        if i in timed:
            times.append(timed[i])
            continue
        j = bisect.bisect_left(keys, i)
        near = min(
            (k for k in keys[max(0, j - 1) : j + 1]),
            key=lambda k: abs(k - i),
        )
        times.append(timed[near])
    return times


def makespan(times, workers, latency):
    """Wall time of handing `times` out in order to `workers` that each take the next when free,
    through one coordinator that spends `latency` on each hand-out."""
    free = [0.0] * min(workers, len(times))
    heapq.heapify(free)
    end = coordinator = 0.0
    for t in times:
        start = max(heapq.heappop(free), coordinator)
        coordinator = start + latency
        finish = coordinator + t
        end = max(end, finish)
        heapq.heappush(free, finish)
    return end


def makespan_with_spares(times, ranks, cores, latency, spare):
    """Like `makespan`, but as the runner now works: each rank asks for CORES + SPARE
    subproblems at the start and for one more with each result, so a thread that finishes takes
    its rank's spare at once (no wait for rank 0) while the spare commits that subproblem to the
    rank early (the tail can be a subproblem longer). Rank 0 still spends `latency` per hand-out."""
    n, events, coordinator, end = len(times), [], 0.0, 0.0
    handed = 0
    waiting = [[] for _ in range(ranks)]  # subproblems that arrived with no thread free
    idle = [cores] * ranks

    def hand_out(t, rank):
        nonlocal handed, coordinator
        if handed < n:
            coordinator = max(t, coordinator) + latency
            heapq.heappush(events, (coordinator, 1, rank, times[handed]))
            handed += 1

    for rank in range(ranks):
        for _ in range(cores + spare):
            hand_out(0.0, rank)
    while events:
        t, arrival, rank, length = heapq.heappop(events)
        if arrival:
            if idle[rank]:
                idle[rank] -= 1
                heapq.heappush(events, (t + length, 0, rank, 0.0))
            else:
                waiting[rank].append(length)
            continue
        end = max(end, t)
        hand_out(t, rank)  # the result is the request for the next
        if waiting[rank]:
            heapq.heappush(events, (t + waiting[rank].pop(0), 0, rank, 0.0))
        else:
            idle[rank] += 1
    return end


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("times")
    p.add_argument("--ranks", default="16,128,1024")
    p.add_argument("--cores", type=int, default=1, help="threads per rank")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every time by this")
    p.add_argument("--latency", type=float, default=2e-5, help="rank 0's seconds per hand-out")
    p.add_argument(
        "--spare",
        type=int,
        default=None,
        help="subproblems each rank holds beyond one per thread (the runner: 1); "
        "without it, every subproblem goes to the first free thread of any rank",
    )
    a = p.parse_args()
    total, timed = read(a.times)
    times = [t * a.scale for t in fill(total, timed)]
    work = sum(times)
    print(
        f"# {a.times}: {total} subproblems ({len(timed)} timed), work {work:.1f} s, "
        f"longest {max(times):.3f} s, cores per rank {a.cores}, scale {a.scale}"
    )
    print("ranks  workers  per-worker  wall(s)  efficiency")
    for ranks in (int(r) for r in a.ranks.split(",")):
        workers = ranks * a.cores
        if a.spare is None:
            wall = makespan(times, workers, a.latency)
        else:
            wall = makespan_with_spares(times, ranks, a.cores, a.latency, a.spare)
        eff = work / (workers * wall)
        print(f"{ranks:5d}  {workers:7d}  {total / workers:10.1f}  {wall:7.2f}  {eff:9.1%}")


if __name__ == "__main__":
    main()
