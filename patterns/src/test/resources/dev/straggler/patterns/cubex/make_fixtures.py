#!/usr/bin/env python3
"""Writes small .cubex fixtures for CubexReaderFormatVariantsTest, independently of the Java writer.

They exercise the parts of the CUBE4 format that Scalasca's reports do not use: zlib-compressed rows
(ZCUBEX.DATA), DENSE indices, big-endian files, SIMPLE metrics, cnode ids out of document order,
derived/ghost/MAXDOUBLE metrics that a reader must skip, and standard tar padding.
Run: python3 make_fixtures.py  (writes the .cubex files next to this script)
"""
import io
import os
import struct
import tarfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# call tree, in document order: main(id 0) -> { a(id 2) -> { c(id 1) }, b(id 3) }
ANCHOR = """<?xml version="1.0" encoding="UTF-8"?>
<cube version="4.4">
<attr key="Creator" value="fixture"/>
<metrics>
<metric id="0" type="INCLUSIVE"><disp_name>Time</disp_name><uniq_name>time</uniq_name><dtype>FLOAT</dtype><uom>sec</uom><url></url><descr>t</descr>
<metric id="4" type="POSTDERIVED"><disp_name>MPI</disp_name><uniq_name>mpi</uniq_name><dtype>FLOAT</dtype><uom>sec</uom><url></url><descr></descr><cubepl>metric::time()</cubepl>
<metric id="1" type="EXCLUSIVE"><disp_name>Late Sender</disp_name><uniq_name>mpi_latesender</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom><url></url><descr></descr></metric>
</metric>
</metric>
<metric id="2" type="SIMPLE"><disp_name>Visits</disp_name><uniq_name>visits</uniq_name><dtype>{visits_dtype}</dtype><uom>occ</uom><url></url><descr></descr></metric>
<metric id="3" type="EXCLUSIVE"><disp_name>Max</disp_name><uniq_name>max_time</uniq_name><dtype>MAXDOUBLE</dtype><uom>sec</uom><url></url><descr></descr></metric>
<metric id="0" type="EXCLUSIVE" viztype="GHOST"><disp_name>Helper</disp_name><uniq_name>helper</uniq_name><dtype>FLOAT</dtype><uom>sec</uom><url></url><descr></descr></metric>
</metrics>
<program>
<region id="0" mod="m.c" begin="1" end="9"><name>main</name><paradigm>user</paradigm><role>function</role></region>
<region id="1" mod="MPI" begin="-1" end="-1"><name>MPI_Recv</name><paradigm>mpi</paradigm><role>point2point</role></region>
<region id="2" mod="m.c" begin="3" end="4"><name>a</name><paradigm>compiler</paradigm><role>function</role></region>
<region id="3" mod="m.c" begin="5" end="6"><name>b</name><paradigm>compiler</paradigm><role>file_io</role></region>
<cnode id="0" calleeId="0">
<cnode id="2" line="7" calleeId="2">
<cnode id="1" calleeId="1">
</cnode>
</cnode>
<cnode id="3" calleeId="3">
</cnode>
</cnode>
</program>
<system>
<systemtreenode Id="0"><name>m</name><class>machine</class>
<locationgroup Id="0"><name>MPI Rank 0</name><rank>0</rank><type>process</type>
<location Id="0"><name>Master thread</name><rank>0</rank><type>thread</type></location>
</locationgroup>
<locationgroup Id="1"><name>MPI Rank 1</name><rank>1</rank><type>process</type>
<location Id="1"><name>Master thread</name><rank>0</rank><type>thread</type></location>
</locationgroup>
</systemtreenode>
</system>
</cube>
"""

# Inclusive time per document-order cnode (main, a, c, b) and location 0/1.
TIME_INCL = {0: (10.0, 20.0), 1: (6.0, 5.0), 2: (2.5, 1.25), 3: (1.0, 4.0)}
# The INCLUSIVE row order (CubeW wide search): root, its children, then each child's children.
WIDE = [0, 1, 3, 2]
# Late Sender on c (document position 2) only, EXCLUSIVE order = document order.
LS = {2: (0.5, 0.75)}
# Visits per cnode *id* (SIMPLE metrics order rows by cnode id): ids 0..3 are main, c, a, b.
VISITS_BY_ID = {0: (1, 1), 1: (40, 41), 2: (20, 20), 3: (3, 70000)}


def index(order, fmt, positions, n):
    head = b"CUBEX.INDEX" + struct.pack(order + "IHB", 1, 0, fmt)
    if fmt == 1:
        head += struct.pack(order + "I", len(positions)) + b"".join(struct.pack(order + "I", p) for p in positions)
    return head


def rows_plain(order, code, rows):
    return b"CUBEX.DATA" + b"".join(struct.pack(order + code * len(r), *r) for r in rows)


def rows_zlib(order, code, rows):
    blobs = [zlib.compress(struct.pack(order + code * len(r), *r)) for r in rows]
    table, payload, start, ustart = [], b"", 0, 0
    for r, blob in zip(rows, blobs):
        table.append(struct.pack(order + "QQQ", ustart, start, len(blob)))
        ustart += len(r) * struct.calcsize(code)
        start += len(blob)
        payload += blob
    return b"ZCUBEX.DATA" + struct.pack(order + "Q", len(rows)) + b"".join(table) + payload


def build(name, order, compressed, visits_dtype, visits_code):
    rows = rows_zlib if compressed else rows_plain
    members = {"anchor.xml": ANCHOR.replace("{visits_dtype}", visits_dtype).encode()}
    # time: INCLUSIVE, DENSE index, rows in wide-search order
    members["0.index"] = index(order, 3, None, 4)
    members["0.data"] = rows(order, "d", [TIME_INCL[p] for p in WIDE])
    # mpi_latesender: EXCLUSIVE, SPARSE with one row
    members["1.index"] = index(order, 1, sorted(LS), 4)
    members["1.data"] = rows(order, "d", [LS[p] for p in sorted(LS)])
    # visits: SIMPLE, SPARSE listing every cnode id
    members["2.index"] = index(order, 1, [0, 1, 2, 3], 4)
    members["2.data"] = rows(order, visits_code, [VISITS_BY_ID[i] for i in range(4)])
    # max_time (MAXDOUBLE) and the ghost helper are stored but must be skipped by the reader
    members["3.index"] = index(order, 3, None, 4)
    members["3.data"] = rows_plain(order, "d", [(9.0, 9.0)] * 4)
    members["ghost_0.index"] = index(order, 3, None, 4)
    members["ghost_0.data"] = rows_plain(order, "d", [(7.0, 7.0)] * 4)
    with tarfile.open(os.path.join(HERE, name), "w", format=tarfile.USTAR_FORMAT) as tar:
        for member, data in members.items():
            info = tarfile.TarInfo(member)
            info.size = len(data)
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))


build("zlib-little-endian.cubex", "<", True, "UINT64", "Q")
build("plain-big-endian.cubex", ">", False, "INT32", "i")
