"""Ports of the processes kg-tools starts: a port a just-killed server still holds is waited for."""

import socket
import threading

from kg_tools.processes import free_port, port_closes, port_open


def test_a_port_released_a_moment_later_counts_as_free():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    assert port_open(port)
    threading.Timer(0.3, listener.close).start()
    assert port_closes(port, timeout=5)
    assert not port_open(port)


def test_a_port_held_past_the_grace_is_in_use():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        assert not port_closes(listener.getsockname()[1], timeout=0.3)


def test_a_closed_port_is_free_at_once():
    assert port_closes(free_port(), timeout=0)
