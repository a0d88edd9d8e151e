"""Run the simulator: ``python -m vagent_tui.sim [--host H] [--port P] [--rooms N]
[--latency-ms M] [--task-seconds S] [--accounts N] [--calls N]
[--jitter-ms J] [--fail-rate F] [--fault KIND]... [--fault-seed N]``.

The fault options are described in `vagent_tui.sim.faults`."""

from __future__ import annotations

import argparse
import contextlib

from vagent_tui.sim import faults as sim_faults
from vagent_tui.sim.serve import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vagent_tui.sim",
                                     description="Serve the platform simulator.")  # fmt: skip
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--rooms", type=int, default=240, help="junk rooms per agent (<= 1e6)")
    parser.add_argument("--latency-ms", type=int, default=0)
    parser.add_argument("--task-seconds", type=float, default=10.0)
    parser.add_argument("--accounts", type=int, default=0,
                        help="grow the demo partner to N agent accounts (<= 100000)")  # fmt: skip
    parser.add_argument("--calls", type=int, default=2_000,
                        help="call log entries per voice agent account (<= 1000000)")  # fmt: skip
    sim_faults.add_arguments(parser)
    args = parser.parse_args(argv)
    faults = sim_faults.from_args(args, parser)
    if not 0 <= args.rooms <= 1_000_000:
        parser.error("--rooms must be between 0 and 1000000")
    if not 0 <= args.accounts <= 100_000:
        parser.error("--accounts must be between 0 and 100000")
    if not 0 <= args.calls <= 1_000_000:
        parser.error("--calls must be between 0 and 1000000")
    with contextlib.suppress(KeyboardInterrupt):
        run(args.host, args.port, args.rooms, args.latency_ms, args.task_seconds, args.accounts,
            faults, calls=args.calls)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
