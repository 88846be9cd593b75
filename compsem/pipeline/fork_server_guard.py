"""Imported first by a fork server a compsem command starts (its preload): the server dies with
the command, and each worker it forks dies with the server (see
:func:`compsem.pipeline.process_guard.guard_forked_children`). Imported anywhere else, it does nothing."""

from compsem.pipeline.process_guard import guard_fork_server

guard_fork_server()
