"""How a command stops: Ctrl-C (SIGINT), SIGTERM (``kill``, ``timeout``, ``docker stop``, Slurm)
and SIGHUP (a closed terminal) each stop it as Ctrl-C does, every clean-up running, with 128 + the
signal's number as its exit status."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable

_stops: list[int] = []  # the signals that asked this command to stop, in order
STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")
STOP_DEADLINE_S = 30.0
"""How long the clean-up of a stopped command may take. CPython's process pool can wait for ever
on a worker that a signal sent to the whole job ended at the wrong moment; past this deadline the
command's ``cut_short`` (see :func:`note_interrupts`) removes what it made and exits."""
_deadline: list[threading.Timer] = []


class Stopped(KeyboardInterrupt):
    """A stop signal other than Ctrl-C (SIGTERM: ``kill``, ``timeout``, ``docker stop``, Slurm;
    SIGHUP: a closed terminal): a KeyboardInterrupt, so that the clean-up written for Ctrl-C
    runs for every one of them."""


def note_interrupts(cut_short: Callable[[], None] | None = None) -> None:
    """Stop this command cleanly on Ctrl-C (SIGINT), SIGTERM and SIGHUP: each raises
    KeyboardInterrupt (:class:`Stopped` for the last two), so that every ``finally`` runs,
    staging and temporary folders included, and the command exits with 128 + the signal's
    number (:func:`stop_status`). Each is remembered, even one Python swallows (raised inside a
    ``__del__`` during garbage collection it is only printed as "Exception ignored"), so that a
    writer can check :func:`interrupted` before its final rename. ``cut_short`` is called (from
    another thread) if the command still runs :data:`STOP_DEADLINE_S` seconds after the first
    stop: it must remove what the command made and exit at once.

    A signal ignored when the command started (``nohup``, a background job) stays ignored. A
    process forked from this one (a pool's manager or worker) is not this command: there SIGTERM
    and SIGHUP kill it at once, as by default."""
    command = os.getpid()

    def handler(signum, frame):
        if os.getpid() != command:
            if signum == signal.SIGINT:
                raise KeyboardInterrupt
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        _stops.append(signum)
        if cut_short is not None and not _deadline:
            _deadline.append(threading.Timer(STOP_DEADLINE_S, cut_short))
            _deadline[0].daemon = True
            _deadline[0].start()
        raise KeyboardInterrupt if signum == signal.SIGINT else Stopped(signal.strsignal(signum))

    if threading.current_thread() is not threading.main_thread():
        return
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is not signal.SIG_IGN:
            signal.signal(number, handler)


def clean_up_done() -> None:
    """The stopped command's clean-up has finished: its ``cut_short`` will not be called."""
    for timer in _deadline:
        timer.cancel()


def interrupted() -> bool:
    """Whether a stop signal reached this command (see :func:`note_interrupts`)."""
    return bool(_stops)


def stop_signal() -> signal.Signals:
    """The signal that stopped this command: the first one noted, else SIGINT (a Ctrl-C that
    Python's own handler turned into KeyboardInterrupt)."""
    return signal.Signals(_stops[0]) if _stops else signal.SIGINT


def stopped_by() -> str:
    """How the command's stop message begins: "stopped" for Ctrl-C, else "stopped by SIGTERM"
    (or the signal that stopped it)."""
    stop = stop_signal()
    return "stopped" if stop == signal.SIGINT else f"stopped by {stop.name}"


def stop_status() -> int:
    """The exit status of a command stopped by a signal, as a shell reports one: 128 + its
    number (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP)."""
    return 128 + stop_signal()
