#!/usr/bin/python3
# Prints every event of an OTF2 archive as read by the official OTF2 Python bindings (python3-otf2), one line per
# event: "<location ref> <KIND> <timestamp> <detail>", KIND in Straggler's EventKind spelling, detail the region
# name for Enter/Leave, "tag length" for point-to-point messages, "-" otherwise. Used by the cli tests as an
# independent reader of archives Straggler writes.
import re
import sys

import otf2


def kind(event):
    return re.sub(r'(?<!^)(?=[A-Z])', '_', type(event).__name__).upper()


def detail(event):
    if hasattr(event, 'region') and event.region is not None:
        return event.region.name
    if hasattr(event, 'msg_tag'):
        return '%d %d' % (event.msg_tag, event.msg_length)
    return '-'


with otf2.reader.open(sys.argv[1]) as trace:
    for location, event in trace.events:
        print(location._ref, kind(event), event.time, detail(event))
