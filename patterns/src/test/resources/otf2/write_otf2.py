#!/usr/bin/python3
"""Writes an OTF2 archive with the official OTF2 library (python3-otf2) from a tab-separated trace dump.

Usage: write_otf2.py INPUT ARCHIVE_DIR

INPUT lines (tab-separated):
  clock   TICKS_PER_SECOND  GLOBAL_OFFSET
  region  ID  NAME  CANONICAL  FILE  PARADIGM  ROLE        (OTF2 enum names; FILE '-' for none)
  location  INDEX  RANK  THREAD  NAME
  comm    ID  NAME  MEMBERS                                (comma-separated global ranks, '-' for none)
  event   LOCATION  TIME  KIND  REF  COMM  TAG  BYTES  AUX (Straggler EventKind codes and columns)
Definition lines come before the first event line; events are streamed, so the input may be of any size.

Communicator groups are written as Score-P writes them: one COMM_LOCATIONS group of the MPI ranks' master threads
and one COMM_GROUP of ranks per communicator. Used by the Straggler tests to produce reference OTF2 archives.
"""
import sys
import otf2
from otf2.enums import Paradigm, RegionRole, GroupType, CollectiveOp, MeasurementMode, LocationGroupType


def main(src, out):
    tps, offset = 1000000000, 0
    regions, locations, comms = [], [], []
    f = open(src)
    first_event = None
    for line in f:
        p = line.rstrip('\n').split('\t')
        if p[0] == 'clock':
            tps, offset = int(p[1]), int(p[2])
        elif p[0] == 'region':
            regions.append(p[1:])
        elif p[0] == 'location':
            locations.append(p[1:])
        elif p[0] == 'comm':
            comms.append(p[1:])
        elif p[0] == 'event':
            first_event = p[1:]
            break

    def events():
        if first_event is not None:
            yield first_event
        for line in f:
            yield line.rstrip('\n').split('\t')[1:]

    with otf2.writer.open(out, timer_resolution=tps) as trace:
        d = trace.definitions
        node = d.system_tree_node("node")
        reg = {}
        for rid, name, canonical, sfile, paradigm, role in regions:
            reg[int(rid)] = d.region(name, canonical_name=canonical, source_file=None if sfile == '-' else sfile,
                                     paradigm=getattr(Paradigm, paradigm), region_role=getattr(RegionRole, role))
        groups = {}
        locs = {}
        master = {}
        for index, rank, thread, name in locations:
            rank, thread = int(rank), int(thread)
            if rank not in groups:
                groups[rank] = d.location_group("MPI Rank %d" % rank, system_tree_parent=node,
                                                location_group_type=LocationGroupType.PROCESS)
            locs[int(index)] = d.location(name, group=groups[rank])
            if thread == 0:
                master[rank] = locs[int(index)]
        d.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI,
                members=[master[r] for r in sorted(master)])
        com = {}
        for cid, name, members in comms:
            ranks = [] if members == '-' else [int(m) for m in members.split(',')]
            g = d.group(name, group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=ranks)
            com[int(cid)] = d.comm(name, group=g)
        writers = {i: trace.event_writer_from_location(l) for i, l in locs.items()}
        for loc, t, kind, ref, comm, tag, nbytes, aux in events():
            w = writers[int(loc)]
            t, kind, ref, comm, tag, nbytes, aux = int(t), int(kind), int(ref), int(comm), int(tag), int(nbytes), int(aux)
            if kind == 0:
                w.enter(t, reg[ref])
            elif kind == 1:
                w.leave(t, reg[ref])
            elif kind == 2:
                w.mpi_send(t, ref, com[comm], tag, nbytes)
            elif kind == 3:
                w.mpi_isend(t, ref, com[comm], tag, nbytes, aux)
            elif kind == 4:
                w.mpi_isend_complete(t, aux)
            elif kind == 5:
                w.mpi_irecv_request(t, aux)
            elif kind == 6:
                w.mpi_recv(t, ref, com[comm], tag, nbytes)
            elif kind == 7:
                w.mpi_irecv(t, ref, com[comm], tag, nbytes, aux)
            elif kind == 8:
                w.mpi_request_test(t, aux)
            elif kind == 9:
                w.mpi_request_cancelled(t, aux)
            elif kind == 10:
                w.mpi_collective_begin(t)
            elif kind == 11:
                w.mpi_collective_end(t, CollectiveOp(ref), com[comm], tag if tag >= 0 else 0xFFFFFFFF, nbytes, aux)
            elif kind == 12:
                w.measurement_on_off(t, MeasurementMode.ON if ref == 1 else MeasurementMode.OFF)
            elif kind == 15:
                w.buffer_flush(t, aux)
            # PROGRAM_BEGIN/END (13, 14) would need the program's string definitions: not written
    f.close()


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
