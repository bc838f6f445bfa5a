"""``python -m bench.profiled PATH``: ``python -m bot`` under cProfile timed by the main thread's CPU time (not
the wall clock: a loaded machine's waits would otherwise swamp the figures), written to PATH when the bot exits
(SIGINT). The profiler runs only between SIGUSR1 and SIGUSR2 (the bench's timed windows: not the start-up, nor
the tables' opening). Used by ``python -m bench.choice_cost --profile PATH``."""

import cProfile
import runpy
import signal
import sys
import time


def main() -> None:
    path = sys.argv.pop(1)
    profiler = cProfile.Profile(time.thread_time)
    signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
    signal.signal(signal.SIGUSR2, lambda *_: profiler.disable())
    try:
        runpy.run_module("bot", run_name="__main__", alter_sys=True)
    except SystemExit:
        pass
    finally:
        profiler.disable()
        profiler.dump_stats(path)


if __name__ == "__main__":
    main()
