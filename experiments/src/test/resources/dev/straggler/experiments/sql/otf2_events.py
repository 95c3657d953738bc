"""Reads an OTF2 archive with the OTF2 project's own Python reader (python3-otf2) and prints, one fact a line:

  count LOCATION KIND N               events per location (OTF2 location reference) and record kind
  first LOCATION KIND TICK SECONDS    the first FIRST records of each location, in order
  send SENDER RECEIVER TAG BYTES      each MpiSend/MpiIsend: sending and receiving location references
  recv SENDER RECEIVER TAG BYTES      each MpiRecv/MpiIrecv

KIND is the record's class name in OTF2's upper-case spelling (MpiIsendComplete -> MPI_ISEND_COMPLETE);
SECONDS is (timestamp - global offset) / timer resolution, printed with repr (the shortest text of the double).
Usage: otf2_events.py ANCHOR FIRST
"""
import collections
import re
import sys

import otf2


def kind(event):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(event).__name__).upper()


def main():
    anchor, first = sys.argv[1], int(sys.argv[2])
    counts = collections.Counter()
    seen = collections.Counter()
    with otf2.reader.open(anchor) as trace:
        clock = trace.definitions.clock_properties
        offset, resolution = clock.global_offset, clock.timer_resolution
        for location, event in trace.events:
            loc = location._ref
            k = kind(event)
            counts[(loc, k)] += 1
            if seen[loc] < first:
                seen[loc] += 1
                print("first", loc, k, event.time, repr((event.time - offset) / resolution))
            if k in ("MPI_SEND", "MPI_ISEND"):
                peer = event.communicator.group.members[event.receiver]._ref
                print("send", loc, peer, event.msg_tag, event.msg_length)
            elif k in ("MPI_RECV", "MPI_IRECV"):
                peer = event.communicator.group.members[event.sender]._ref
                print("recv", peer, loc, event.msg_tag, event.msg_length)
    for (loc, k), n in sorted(counts.items()):
        print("count", loc, k, n)


if __name__ == "__main__":
    main()
