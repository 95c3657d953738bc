#!/usr/bin/python3
"""Prints the events of an OTF2 archive as python3-otf2 (the official library's Python reader) delivers them.

Usage: read_events.py ANCHOR

One line per event, grouped by location in file order: "location NAME time field...", NAME being the record's
python class (Enter, MpiSend, ...). Fields, for the records Straggler's model carries:
  Enter/Leave: region id; MpiSend/MpiRecv: peer, communicator id, tag, length; MpiIsend/MpiIrecv: the same and
  the request id; request-only records: the request id; MpiCollectiveEnd: operation code, communicator id, root,
  bytes sent, bytes received; MeasurementOnOff: mode code; BufferFlush: stop time; ProgramEnd: exit status;
  ThreadFork: paradigm code, requested threads; ThreadJoin: paradigm code; ThreadAcquireLock/ThreadReleaseLock:
  paradigm code, lock id, acquisition order; ThreadBegin: thread contingent communicator id, sequence count.
Other records print their name and time only.
"""
import sys

import otf2


def ref(d):
    return d._ref if d is not None else 4294967295


def fields(e):
    n = type(e).__name__
    if n in ("Enter", "Leave"):
        return [ref(e.region)]
    if n in ("MpiSend", "MpiIsend"):
        f = [e.receiver, ref(e.communicator), e.msg_tag, e.msg_length]
        return f + [e.request_id] if n == "MpiIsend" else f
    if n in ("MpiRecv", "MpiIrecv"):
        f = [e.sender, ref(e.communicator), e.msg_tag, e.msg_length]
        return f + [e.request_id] if n == "MpiIrecv" else f
    if n in ("MpiIsendComplete", "MpiIrecvRequest", "MpiRequestTest", "MpiRequestCancelled"):
        return [e.request_id]
    if n == "MpiCollectiveEnd":
        return [e.collective_op.value, ref(e.communicator), e.root, e.size_sent, e.size_received]
    if n == "MeasurementOnOff":
        return [e.measurement_mode.value]
    if n == "BufferFlush":
        return [e.stop_time]
    if n == "ProgramEnd":
        return [e.exit_status]
    if n == "ThreadFork":
        return [e.model.value, e.number_of_requested_threads]
    if n == "ThreadJoin":
        return [e.model.value]
    if n in ("ThreadAcquireLock", "ThreadReleaseLock"):
        return [e.model.value, e.lock_id, e.acquisition_order]
    if n == "ThreadBegin":
        return [ref(e.thread_contingent), e.sequence_count]
    return []


def main(anchor):
    by_location = {}
    with otf2.reader.open(anchor) as trace:
        for location, event in trace.events:
            line = " ".join(str(x) for x in [type(event).__name__, event.time] + fields(event))
            by_location.setdefault(location._ref, []).append(line)
    out = sys.stdout
    for loc in sorted(by_location):
        for line in by_location[loc]:
            out.write("%d %s\n" % (loc, line))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
