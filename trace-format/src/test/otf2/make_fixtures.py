#!/usr/bin/python3
"""Writes the OTF2 test fixtures with the official OTF2 library (python3-otf2, low-level API).

Usage: make_fixtures.py OUTPUT_DIR

Creates, each as OUTPUT_DIR/<name>/traces.otf2:
  records  - two MPI ranks and an OpenMP thread: every event record OTF2 3.0 defines (those Straggler's model
             carries and those it skips), attribute lists of every value type, several 256 KiB chunks on rank 0,
             sparse region ids, a communicator whose ranks run in reverse order, MPI_COMM_SELF, timestamps
             above 2^53, and a METRIC location without an event file.
  mapped   - events written with local ids: sparse and dense mapping tables (region, communicator, string) and
             clock offsets with changing slope on rank 0, a single clock offset (no correction) on rank 1.
  nompi    - no MPI paradigm at all: two processes with two threads each, metric records only otherwise.

The library writes in the byte order of the machine; it cannot write the other one. Independent facts about
these files come from otf2-print reading them, never from this script's own bookkeeping.
"""
import os
import sys

import _otf2
from _otf2.GeneralDefinitions import (FILEMODE_WRITE, SUBSTRATE_POSIX, COMPRESSION_NONE, FLUSH,
                                      UNDEFINED_UINT32, UNDEFINED_UINT64, MAPPING_REGION, MAPPING_COMM,
                                      MAPPING_STRING)
from _otf2.IdMap import IdMapMode
from _otf2.Events import MetricValue

UNDEF32 = UNDEFINED_UINT32.value
UNDEF64 = UNDEFINED_UINT64.value
CHUNK = 256 * 1024  # OTF2_CHUNK_SIZE_MIN: the smallest chunk the library accepts

# OTF2 enum values (include/otf2/OTF2_*.h)
PARADIGM_USER, PARADIGM_COMPILER, PARADIGM_OPENMP, PARADIGM_MPI = 1, 2, 3, 4
PARADIGM_MEASUREMENT_SYSTEM, PARADIGM_PTHREAD = 6, 7
ROLE_FUNCTION, ROLE_PARALLEL, ROLE_BARRIER, ROLE_COLL_ONE2ALL, ROLE_COLL_ALL2ALL, ROLE_POINT2POINT = 1, 5, 15, 23, 25, 28
ROLE_ARTIFICIAL = 31
LG_PROCESS = 1
LOC_CPU_THREAD, LOC_METRIC = 1, 3
GT_REGIONS, GT_COMM_LOCATIONS, GT_COMM_GROUP, GT_COMM_SELF = 2, 4, 5, 6
T_UINT8, T_UINT16, T_UINT32, T_UINT64, T_INT8, T_INT16, T_INT32, T_INT64 = 1, 2, 3, 4, 5, 6, 7, 8
T_FLOAT, T_DOUBLE, T_STRING, T_LOCATION, T_REGION = 9, 10, 11, 13, 14
OP_BARRIER, OP_BCAST, OP_ALLREDUCE, OP_REDUCE, OP_CREATE_HANDLE = 0, 1, 11, 12, 17


class Archive:
    """An archive being written; refs of definitions are chosen by the caller."""

    def __init__(self, path, creator="straggler test fixture"):
        self.handle = _otf2.Archive_Open(path, "traces", FILEMODE_WRITE, CHUNK, CHUNK, SUBSTRATE_POSIX,
                                         COMPRESSION_NONE)
        self._flush = _otf2.FlushCallbacks(pre_flush=lambda *args: FLUSH, post_flush=None)
        _otf2.Archive_SetFlushCallbacks(self.handle, self._flush, None)
        _otf2.Archive_SetSerialCollectiveCallbacks(self.handle)
        _otf2.Archive_SetCreator(self.handle, creator)
        _otf2.Archive_SetDescription(self.handle, "written by make_fixtures.py")
        _otf2.Archive_SetMachineName(self.handle, "fixture-machine")
        _otf2.Archive_OpenEvtFiles(self.handle)
        self.writers = {}
        self.counts = {}
        self.first = None
        self.last = None

    def events(self, location):
        if location not in self.writers:
            self.writers[location] = Events(self, location)
        return self.writers[location]

    def finish(self, write_globals, write_locals=lambda location, writer: None):
        for w in self.writers.values():
            _otf2.Archive_CloseEvtWriter(self.handle, w.handle)
        _otf2.Archive_CloseEvtFiles(self.handle)
        _otf2.Archive_OpenDefFiles(self.handle)
        for location in self.writers:
            dw = _otf2.Archive_GetDefWriter(self.handle, location)
            write_locals(location, dw)
            _otf2.Archive_CloseDefWriter(self.handle, dw)
        _otf2.Archive_CloseDefFiles(self.handle)
        g = _otf2.Archive_GetGlobalDefWriter(self.handle)
        # readers (otf2-print among them) expect every string before the definitions naming it, so the
        # definitions are recorded first and written after the strings they allocated
        recorder = Recorder()
        write_globals(recorder, self)
        recorder.strings.write(g)
        for fn, args in recorder.calls:
            fn(g, *args)
        _otf2.Archive_CloseGlobalDefWriter(self.handle, g)
        _otf2.Archive_Close(self.handle)


class Events:
    """Calls OTF2_EvtWriter_<Name>(writer, attributes, time, ...) and counts what it wrote."""

    def __init__(self, archive, location):
        self.archive = archive
        self.location = location
        self.handle = _otf2.Archive_GetEvtWriter(archive.handle, location)
        archive.counts[location] = 0

    def __getattr__(self, name):
        fn = getattr(_otf2, "EvtWriter_" + name)

        def write(time, *args, attributes=None):
            a = self.archive
            a.first = time if a.first is None else min(a.first, time)
            a.last = time if a.last is None else max(a.last, time)
            a.counts[self.location] += 1
            fn(self.handle, attributes, time, *args)
        return write


class Recorder:
    """Stands in for the global definition writer: GlobalDefWriter_<Name>(recorder, ...) calls are kept."""

    def __init__(self):
        self.calls = []
        self.strings = None


class Strings:
    def __init__(self):
        self.ids = {"": 0}

    def __call__(self, text):
        if text not in self.ids:
            self.ids[text] = len(self.ids)
        return self.ids[text]

    def write(self, g):
        for text, ref in self.ids.items():
            _otf2.GlobalDefWriter_WriteString(g, ref, text)


def gdef(recorder, fn, *args):
    recorder.calls.append((fn, args))


def attribute_list(values):
    """values: list of (attribute ref, adder suffix, value)."""
    al = _otf2.AttributeList_New()
    for ref, kind, value in values:
        getattr(_otf2, "AttributeList_Add" + kind)(al, ref, value)
    return al


def metric_values(*pairs):
    out = []
    for kind, value in pairs:
        mv = MetricValue()
        if kind == "int":
            mv.signed_int = value
        elif kind == "uint":
            mv.unsigned_int = value
        else:
            mv.floating_point = value
        out.append(mv)
    return out


def write_clock(g, archive, resolution):
    gdef(g, _otf2.GlobalDefWriter_WriteClockProperties, resolution, archive.first, archive.last - archive.first,
         UNDEF64)


def write_locations(g, archive, locations):
    """locations: list of (ref, name string ref, type, group)."""
    for ref, name, kind, group in locations:
        gdef(g, _otf2.GlobalDefWriter_WriteLocation, ref, name, kind, archive.counts.get(ref, 0), group)


# ---------------------------------------------------------------------------------------------------------------
# records

RANK0, RANK1, THREAD1 = 0, 1, 1 << 32
METRIC_LOC = 2 << 32
# region refs: deliberately sparse (1000) so that readers must renumber
R_MAIN, R_INIT, R_SEND, R_RECV, R_ISEND, R_IRECV, R_WAIT, R_TEST = 0, 1, 2, 3, 4, 5, 6, 7
R_BCAST, R_ALLREDUCE, R_BARRIER, R_FINALIZE, R_COMPUTE, R_PARALLEL, R_IALLREDUCE = 8, 9, 10, 11, 12, 13, 1000
C_WORLD, C_SELF, C_REVERSED, C_TEAM = 0, 1, 2, 3


def records(path):
    s = Strings()
    a = Archive(path)
    base = 9_604_711_018_472_393  # above 2^53, odd: timestamps must stay exact integers
    r0 = a.events(RANK0)
    r1 = a.events(RANK1)
    th = a.events(THREAD1)
    mt = a.events(METRIC_LOC)

    attrs = lambda: attribute_list([(0, "Uint32", 7), (1, "Double", 0.25), (2, "StringRef", s("label")),
                                    (3, "Int64", -5), (4, "LocationRef", RANK1), (5, "Uint8", 200),
                                    (6, "Int16", -300), (7, "Float", 1.5), (8, "Uint64", UNDEF64),
                                    (9, "Int8", -1), (10, "Uint16", 65535), (11, "Int32", -70000),
                                    (12, "RegionRef", R_MAIN)])

    t = base
    for w, me, peer in ((r0, 0, 1), (r1, 1, 0)):
        t = base + me
        w.ProgramBegin(t, s("./fixture.x"), [s("-n"), s("2")], attributes=attrs())
        w.Enter(t, R_MAIN)
        t += 3
        w.Enter(t, R_INIT)
        w.MpiCollectiveBegin(t)
        t += 5
        w.MpiCollectiveEnd(t, OP_CREATE_HANDLE, C_WORLD, UNDEF32, 0, 0)
        w.Leave(t, R_INIT)
        t += 7
        w.MeasurementOnOff(t, 2)
        t += 11
        w.MeasurementOnOff(t, 1)
        t += 13
        w.BufferFlush(t, t + 101)
        t += 17
        # blocking and non-blocking point-to-point, both directions
        if me == 0:
            w.Enter(t, R_SEND)
            w.MpiSend(t + 1, peer, C_WORLD, 42, 1024, attributes=attrs())
            w.Leave(t + 2, R_SEND)
            w.Enter(t + 3, R_ISEND)
            w.MpiIsend(t + 3, peer, C_WORLD, 43, 2048, 77)
            w.Leave(t + 4, R_ISEND)
            w.Enter(t + 5, R_WAIT)
            w.MpiIsendComplete(t + 6, 77)
            w.Leave(t + 7, R_WAIT)
            w.Enter(t + 8, R_RECV)
            w.MpiRecv(t + 9, peer, C_WORLD, 44, 1 << 40)
            w.Leave(t + 9, R_RECV)
            # on the reversed communicator rank 0 is global rank 1
            w.Enter(t + 10, R_SEND)
            w.MpiSend(t + 10, 0, C_REVERSED, 45, 8)
            w.Leave(t + 11, R_SEND)
        else:
            w.Enter(t, R_RECV)
            w.MpiRecv(t + 1, peer, C_WORLD, 42, 1024)
            w.Leave(t + 2, R_RECV)
            w.Enter(t + 3, R_IRECV)
            w.MpiIrecvRequest(t + 3, 88)
            w.Leave(t + 4, R_IRECV)
            w.Enter(t + 5, R_TEST)
            w.MpiRequestTest(t + 5, 88)
            w.Leave(t + 6, R_TEST)
            w.Enter(t + 6, R_WAIT)
            w.MpiIrecv(t + 7, peer, C_WORLD, 43, 2048, 88)
            w.Leave(t + 7, R_WAIT)
            w.Enter(t + 8, R_SEND)
            w.MpiSend(t + 8, peer, C_WORLD, 44, 1 << 40)
            w.Leave(t + 9, R_SEND)
            w.Enter(t + 10, R_IRECV)
            w.MpiIrecvRequest(t + 10, 99)
            w.MpiRequestCancelled(t + 11, 99)
            w.Leave(t + 11, R_IRECV)
            w.Enter(t + 11, R_RECV)
            w.MpiRecv(t + 12, 1, C_REVERSED, 45, 8)
            w.Leave(t + 12, R_RECV)
        t += 20
        # collectives: rooted, unrooted, on MPI_COMM_SELF
        w.Enter(t, R_BCAST)
        w.MpiCollectiveBegin(t)
        w.MpiCollectiveEnd(t + 2, OP_BCAST, C_WORLD, 0, 4096 if me == 0 else 0, 4096)
        w.Leave(t + 3, R_BCAST)
        w.Enter(t + 4, R_ALLREDUCE)
        w.MpiCollectiveBegin(t + 4)
        w.MpiCollectiveEnd(t + 5, OP_ALLREDUCE, C_WORLD, UNDEF32, 8, 8)
        w.Leave(t + 6, R_ALLREDUCE)
        w.Enter(t + 7, R_BARRIER)
        w.MpiCollectiveBegin(t + 7)
        w.MpiCollectiveEnd(t + 8, OP_BARRIER, C_SELF, UNDEF32, 0, 0)
        w.Leave(t + 9, R_BARRIER)
        w.Enter(t + 10, R_IALLREDUCE)
        w.NonBlockingCollectiveRequest(t + 10, 5)
        w.Leave(t + 11, R_IALLREDUCE)
        w.NonBlockingCollectiveComplete(t + 12, OP_ALLREDUCE, C_WORLD, UNDEF32, 8, 8, 5)
        w.CommCreate(t + 13, C_REVERSED)
        w.CommDestroy(t + 14, C_REVERSED)
        t += 20
        # the bulk: enough records for several chunks on rank 0, few on rank 1; equal timestamps are
        # written once (the library omits a TIMESTAMP record when the time does not change)
        for i in range(45000 if me == 0 else 400):
            w.Enter(t, R_COMPUTE)
            if i % 3 == 0:
                w.MpiSend(t, peer, C_WORLD, i & 0xFFFF, i * 8) if me == 0 else w.MpiRecv(t, peer, C_WORLD, i & 0xFFFF, i * 8)
            t += 1 + (i % 5)
            w.Leave(t, R_COMPUTE)
            t += 2
        w.Enter(t, R_FINALIZE)
        w.MpiCollectiveBegin(t)
        w.MpiCollectiveEnd(t + 1, OP_REDUCE, C_WORLD, 1, 16, 32 if me == 1 else 0)
        w.Leave(t + 2, R_FINALIZE)
        w.Leave(t + 3, R_MAIN)
        w.ProgramEnd(t + 4, -3 if me == 0 else 0)

    # every record Straggler's model does not carry, on rank 0's master thread and the OpenMP thread
    t = a.last + 10
    r0.OmpFork(t, 2)
    th.Enter(t + 1, R_PARALLEL)
    th.ThreadTeamBegin(t + 1, C_TEAM)
    th.OmpAcquireLock(t + 2, 1, 1)
    th.OmpReleaseLock(t + 3, 1, 1)
    th.OmpTaskCreate(t + 4, 1 << 33)
    th.OmpTaskSwitch(t + 5, 1 << 33)
    th.OmpTaskComplete(t + 6, 1 << 33)
    th.ThreadTeamEnd(t + 7, C_TEAM)
    th.Leave(t + 8, R_PARALLEL)
    r0.OmpJoin(t + 9)
    t += 10
    r0.Metric(t, 0, [T_UINT64, T_INT64, T_DOUBLE], metric_values(("uint", 12345), ("int", -6), ("dbl", 2.5)))
    mt.Metric(t, 0, [T_UINT64, T_INT64, T_DOUBLE], metric_values(("uint", 1), ("int", -1), ("dbl", 0.5)))
    mt.Metric(t + 50, 0, [T_UINT64, T_INT64, T_DOUBLE], metric_values(("uint", 2), ("int", -2), ("dbl", 1.5)))
    r0.ParameterString(t + 1, 0, s("fast"))
    r0.ParameterInt(t + 2, 1, -42)
    r0.ParameterUnsignedInt(t + 3, 2, 42)
    r0.RmaWinCreate(t + 4, 0)
    r0.RmaCollectiveBegin(t + 5)
    r0.RmaCollectiveEnd(t + 6, OP_BARRIER, 0, 0, UNDEF32, 0, 0)
    r0.RmaGroupSync(t + 7, 0, 0, 0)
    r0.RmaRequestLock(t + 8, 0, 1, 3, 0)
    r0.RmaAcquireLock(t + 9, 0, 1, 3, 0)
    r0.RmaTryLock(t + 10, 0, 1, 3, 0)
    r0.RmaReleaseLock(t + 11, 0, 1, 3)
    r0.RmaSync(t + 12, 0, 1, 0)
    r0.RmaWaitChange(t + 13, 0)
    r0.RmaPut(t + 14, 0, 1, 64, 9)
    r0.RmaGet(t + 15, 0, 1, 64, 10)
    r0.RmaAtomic(t + 16, 0, 1, 0, 8, 8, 11)
    r0.RmaOpCompleteBlocking(t + 17, 0, 9)
    r0.RmaOpCompleteNonBlocking(t + 18, 0, 10)
    r0.RmaOpTest(t + 19, 0, 11)
    r0.RmaOpCompleteRemote(t + 20, 0, 11)
    r0.RmaWinDestroy(t + 21, 0)
    r0.ThreadFork(t + 22, PARADIGM_PTHREAD, 2)
    r0.ThreadJoin(t + 23, PARADIGM_PTHREAD)
    r0.ThreadAcquireLock(t + 24, PARADIGM_PTHREAD, 4, 1)
    r0.ThreadReleaseLock(t + 25, PARADIGM_PTHREAD, 4, 1)
    r0.ThreadTaskCreate(t + 26, C_TEAM, 0, 1)
    r0.ThreadTaskSwitch(t + 27, C_TEAM, 0, 1)
    r0.ThreadTaskComplete(t + 28, C_TEAM, 0, 1)
    r0.ThreadCreate(t + 29, C_TEAM, 5)
    r0.ThreadBegin(t + 30, C_TEAM, 5)
    r0.ThreadWait(t + 31, C_TEAM, 5)
    r0.ThreadEnd(t + 32, C_TEAM, 5)
    r0.CallingContextEnter(t + 33, 0, 1)
    r0.CallingContextSample(t + 34, 0, 1, 0)
    r0.CallingContextLeave(t + 35, 0)
    r0.IoCreateHandle(t + 36, 0, 0, 0, 0)
    r0.IoDuplicateHandle(t + 37, 0, 1, 0)
    r0.IoSeek(t + 38, 0, -16, 0, 100)
    r0.IoChangeStatusFlags(t + 39, 0, 0)
    r0.IoOperationBegin(t + 40, 0, 0, 0, 512, 12)
    r0.IoOperationTest(t + 41, 0, 12)
    r0.IoOperationIssued(t + 42, 0, 12)
    r0.IoOperationComplete(t + 43, 0, 512, 12)
    r0.IoOperationCancelled(t + 44, 0, 13)
    r0.IoAcquireLock(t + 45, 0, 0)
    r0.IoTryLock(t + 46, 0, 0)
    r0.IoReleaseLock(t + 47, 0, 0)
    r0.IoDestroyHandle(t + 48, 1)
    r0.IoDeleteFile(t + 49, 0, 0)

    def globals_(g, arch):
        write_clock(g, arch, 1_000_000_000)
        gdef(g, _otf2.GlobalDefWriter_WriteParadigm, PARADIGM_MPI, s("MPI"), 1)
        gdef(g, _otf2.GlobalDefWriter_WriteParadigm, PARADIGM_OPENMP, s("OpenMP"), 2)
        gdef(g, _otf2.GlobalDefWriter_WriteSystemTreeNode, 0, s("fixture-machine"), s("machine"), UNDEF32)
        gdef(g, _otf2.GlobalDefWriter_WriteSystemTreeNode, 1, s("node0"), s("node"), 0)
        gdef(g, _otf2.GlobalDefWriter_WriteSystemTreeNodeDomain, 0, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteLocationGroup, 0, s("MPI Rank 0"), LG_PROCESS, 1, UNDEF32)
        gdef(g, _otf2.GlobalDefWriter_WriteLocationGroup, 1, s("MPI Rank 1"), LG_PROCESS, 1, UNDEF32)
        write_locations(g, arch, [(RANK0, s("Master thread"), LOC_CPU_THREAD, 0),
                                  (RANK1, s("Master thread"), LOC_CPU_THREAD, 1),
                                  (THREAD1, s("OMP thread 1"), LOC_CPU_THREAD, 0),
                                  (METRIC_LOC, s("metric location"), LOC_METRIC, 0)])
        mpi = lambda name: (s(name), s("MPI"))

        def region(ref, name, role, paradigm, source=None, begin=0, end=0):
            gdef(g, _otf2.GlobalDefWriter_WriteRegion, ref, s(name), s(name), s("desc " + name), role, paradigm, 0,
                                              s(source) if source else UNDEF32, begin, end)
        region(R_MAIN, "main", ROLE_FUNCTION, PARADIGM_USER, "fixture.c", 10, 90)
        region(R_INIT, "MPI_Init", ROLE_FUNCTION, PARADIGM_MPI, "MPI")
        region(R_SEND, "MPI_Send", ROLE_POINT2POINT, PARADIGM_MPI, "MPI")
        region(R_RECV, "MPI_Recv", ROLE_POINT2POINT, PARADIGM_MPI, "MPI")
        region(R_ISEND, "MPI_Isend", ROLE_POINT2POINT, PARADIGM_MPI, "MPI")
        region(R_IRECV, "MPI_Irecv", ROLE_POINT2POINT, PARADIGM_MPI, "MPI")
        region(R_WAIT, "MPI_Wait", ROLE_POINT2POINT, PARADIGM_MPI, "MPI")
        region(R_TEST, "MPI_Test", ROLE_POINT2POINT, PARADIGM_MPI, "MPI")
        region(R_BCAST, "MPI_Bcast", ROLE_COLL_ONE2ALL, PARADIGM_MPI, "MPI")
        region(R_ALLREDUCE, "MPI_Allreduce", ROLE_COLL_ALL2ALL, PARADIGM_MPI, "MPI")
        region(R_BARRIER, "MPI_Barrier", ROLE_BARRIER, PARADIGM_MPI, "MPI")
        region(R_FINALIZE, "MPI_Finalize", ROLE_FUNCTION, PARADIGM_MPI, "MPI")
        region(R_COMPUTE, "compute", ROLE_FUNCTION, PARADIGM_COMPILER, "fixture.c", 20, 30)
        region(R_PARALLEL, "!$omp parallel @fixture.c:40", ROLE_PARALLEL, PARADIGM_OPENMP, "fixture.c", 40, 48)
        region(R_IALLREDUCE, "MPI_Iallreduce", ROLE_COLL_ALL2ALL, PARADIGM_MPI, "MPI")
        gdef(g, _otf2.GlobalDefWriter_WriteCallsite, 0, s("fixture.c"), 15, R_MAIN, R_COMPUTE)
        gdef(g, _otf2.GlobalDefWriter_WriteCallpath, 0, UNDEF32, R_MAIN)
        gdef(g, _otf2.GlobalDefWriter_WriteCallpath, 1, 0, R_COMPUTE)
        types = [T_UINT32, T_DOUBLE, T_STRING, T_INT64, T_LOCATION, T_UINT8, T_INT16, T_FLOAT, T_UINT64, T_INT8,
                 T_UINT16, T_INT32, T_REGION]
        for ref, ty in enumerate(types):
            gdef(g, _otf2.GlobalDefWriter_WriteAttribute, ref, s("attr%d" % ref), s("attribute %d" % ref), ty)
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 0, s(""), GT_COMM_LOCATIONS, PARADIGM_MPI, 0, [RANK0, RANK1])
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 1, s(""), GT_COMM_GROUP, PARADIGM_MPI, 0, [0, 1])
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 2, s(""), GT_COMM_SELF, PARADIGM_MPI, 0, [])
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 3, s("reversed"), GT_COMM_GROUP, PARADIGM_MPI, 0, [1, 0])
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 4, s("team locations"), GT_COMM_LOCATIONS, PARADIGM_OPENMP, 0,
             [RANK0, THREAD1])
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 5, s("team"), GT_COMM_GROUP, PARADIGM_OPENMP, 0, [0, 1])
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 6, s("compute regions"), GT_REGIONS, PARADIGM_USER, 0,
             [R_MAIN, R_COMPUTE])
        gdef(g, _otf2.GlobalDefWriter_WriteComm, C_WORLD, s("MPI_COMM_WORLD"), 1, UNDEF32, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteComm, C_SELF, s("MPI_COMM_SELF"), 2, UNDEF32, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteComm, C_REVERSED, s("reversed"), 3, C_WORLD, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteComm, C_TEAM, s("OpenMP team"), 5, UNDEF32, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteInterComm, 4, s("intercomm"), 1, 3, C_WORLD, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteParameter, 0, s("mode"), 0)
        gdef(g, _otf2.GlobalDefWriter_WriteParameter, 1, s("delta"), 1)
        gdef(g, _otf2.GlobalDefWriter_WriteParameter, 2, s("size"), 2)
        gdef(g, _otf2.GlobalDefWriter_WriteRmaWin, 0, s("window"), C_WORLD, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteMetricMember, 0, s("cycles"), s("cycles"), 0, 0, T_UINT64, 1, 0, s("#"))
        gdef(g, _otf2.GlobalDefWriter_WriteMetricMember, 1, s("delta"), s("delta"), 0, 0, T_INT64, 1, 0, s("#"))
        gdef(g, _otf2.GlobalDefWriter_WriteMetricMember, 2, s("power"), s("power"), 0, 0, T_DOUBLE, 1, 0, s("W"))
        gdef(g, _otf2.GlobalDefWriter_WriteMetricClass, 0, [0, 1, 2], 0, 2)
        gdef(g, _otf2.GlobalDefWriter_WriteSourceCodeLocation, 0, s("fixture.c"), 33)
        gdef(g, _otf2.GlobalDefWriter_WriteCallingContext, 0, R_COMPUTE, 0, UNDEF32)
        gdef(g, _otf2.GlobalDefWriter_WriteInterruptGenerator, 0, s("timer"), 0, 1, 0, 1000)
        gdef(g, _otf2.GlobalDefWriter_WriteIoRegularFile, 0, s("/tmp/data"), 1)
        gdef(g, _otf2.GlobalDefWriter_WriteIoHandle, 0, s("fd 3"), 0, 0, 0, UNDEF32, UNDEF32)
        gdef(g, _otf2.GlobalDefWriter_WriteIoHandle, 1, s("fd 4"), 0, 0, 0, UNDEF32, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteCartDimension, 0, s("x"), 2, 1)
        gdef(g, _otf2.GlobalDefWriter_WriteCartTopology, 0, s("ring"), C_WORLD, [0])
        gdef(g, _otf2.GlobalDefWriter_WriteCartCoordinate, 0, 0, [0])
        gdef(g, _otf2.GlobalDefWriter_WriteCartCoordinate, 0, 1, [1])
        g.strings = s

    a.finish(globals_)


# ---------------------------------------------------------------------------------------------------------------
# mapped

def mapped(path):
    s = Strings()
    a = Archive(path)
    base = 1 << 53  # clock correction must be exact in integers, also above 2^53
    r0 = a.events(0)
    r1 = a.events(1)
    # rank 0 writes local region ids 0, 1, 7 (global 5, 3, 2), local comm 0 = global 1 (world), 1 = global 0 (self);
    # rank 1 writes global communicator ids
    t = base
    r0.ProgramBegin(t, 3, [])  # local string 3 -> global "./mapped.x"
    r0.Enter(t, 0)
    for i in range(300):
        t += 1000 + 7 * i
        r0.Enter(t, 1)
        r0.MpiSend(t + 1, 1, 0, 5, 64)
        r0.Leave(t + 2, 1)
        r0.Enter(t + 3, 7)
        r0.MpiCollectiveBegin(t + 3)
        r0.MpiCollectiveEnd(t + 4, OP_BARRIER, 1, UNDEF32, 0, 0)
        r0.Leave(t + 5, 7)
        if i == 150:
            # the C reader corrects a BufferFlush's stop time with the same forward-only interval search as
            # event times; what follows at the same timestamp shows whether a reader reproduces that
            r0.BufferFlush(t + 6, t + 300_000)
            r0.Enter(t + 6, 1)
            r0.Leave(t + 7, 1)
    r0.Leave(t + 10, 0)
    r0.ProgramEnd(t + 11, 0)
    end0 = t
    # rank 1 uses a dense region map 0..3 -> 2..5 and global communicator ids
    t = base + 5
    r1.ProgramBegin(t, 3, [])
    r1.Enter(t, 3)
    for i in range(300):
        t += 1000 + 7 * i
        r1.Enter(t, 1)
        r1.MpiRecv(t + 2, 0, 1, 5, 64)
        r1.Leave(t + 3, 1)
        r1.Enter(t + 3, 0)
        r1.MpiCollectiveBegin(t + 3)
        r1.MpiCollectiveEnd(t + 4, OP_BARRIER, 0, UNDEF32, 0, 0)
        r1.Leave(t + 5, 0)
    r1.Leave(t + 10, 3)
    r1.ProgramEnd(t + 11, 0)

    def locals_(location, dw):
        if location == 0:
            m = _otf2.IdMap_Create(IdMapMode(1), 3)  # sparse
            for local, glob in ((0, 5), (1, 3), (7, 2)):
                _otf2.IdMap_AddIdPair(m, local, glob)
            _otf2.DefWriter_WriteMappingTable(dw, MAPPING_REGION, m)
            _otf2.DefWriter_WriteMappingTable(dw, MAPPING_COMM, _otf2.IdMap_CreateFromUint64Array([1, 0], False))
            _otf2.DefWriter_WriteMappingTable(dw, MAPPING_STRING,
                                              _otf2.IdMap_CreateFromUint64Array([0, 1, 2, s("./mapped.x")], False))
            # offsets change at different rates, so every interval has its own slope; events before the first
            # and after the last offset extrapolate
            _otf2.DefWriter_WriteClockOffset(dw, base + 40_000, 1_000, 0.5)
            _otf2.DefWriter_WriteClockOffset(dw, base + 150_000, -2_500, 0.25)
            _otf2.DefWriter_WriteClockOffset(dw, base + 400_000, 7_777, 0.0)
            _otf2.DefWriter_WriteClockOffset(dw, end0 - 100_000, 7_000, 0.0)
        else:
            _otf2.DefWriter_WriteMappingTable(dw, MAPPING_REGION,
                                              _otf2.IdMap_CreateFromUint64Array([2, 3, 4, 5], False))
            _otf2.DefWriter_WriteMappingTable(dw, MAPPING_STRING,
                                              _otf2.IdMap_CreateFromUint64Array([0, 1, 2, s("./mapped.x")], False))
            _otf2.DefWriter_WriteClockOffset(dw, base + 100, 123_456, 0.0)

    def globals_(g, arch):
        write_clock(g, arch, 2_500_000_000)
        gdef(g, _otf2.GlobalDefWriter_WriteParadigm, PARADIGM_MPI, s("MPI"), 1)
        gdef(g, _otf2.GlobalDefWriter_WriteSystemTreeNode, 0, s("node0"), s("node"), UNDEF32)
        gdef(g, _otf2.GlobalDefWriter_WriteLocationGroup, 0, s("MPI Rank 0"), LG_PROCESS, 0, UNDEF32)
        gdef(g, _otf2.GlobalDefWriter_WriteLocationGroup, 1, s("MPI Rank 1"), LG_PROCESS, 0, UNDEF32)
        write_locations(g, arch, [(0, s("Master thread"), LOC_CPU_THREAD, 0),
                                  (1, s("Master thread"), LOC_CPU_THREAD, 1)])
        for ref, name, role in ((2, "MPI_Barrier", ROLE_BARRIER), (3, "MPI_Send", ROLE_POINT2POINT),
                                (4, "MPI_Recv", ROLE_POINT2POINT)):
            gdef(g, _otf2.GlobalDefWriter_WriteRegion, ref, s(name), s(name), s(""), role, PARADIGM_MPI, 0, s("MPI"), 0, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteRegion, 5, s("main"), s("main"), s(""), ROLE_FUNCTION, PARADIGM_USER, 0,
                                          s("mapped.c"), 1, 9)
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 0, s(""), GT_COMM_LOCATIONS, PARADIGM_MPI, 0, [0, 1])
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 1, s(""), GT_COMM_GROUP, PARADIGM_MPI, 0, [0, 1])
        gdef(g, _otf2.GlobalDefWriter_WriteGroup, 2, s(""), GT_COMM_SELF, PARADIGM_MPI, 0, [])
        gdef(g, _otf2.GlobalDefWriter_WriteComm, 0, s("MPI_COMM_SELF"), 2, UNDEF32, 0)
        gdef(g, _otf2.GlobalDefWriter_WriteComm, 1, s("MPI_COMM_WORLD"), 1, UNDEF32, 0)
        g.strings = s

    s("./mapped.x")
    a.finish(globals_, locals_)


# ---------------------------------------------------------------------------------------------------------------
# nompi

def nompi(path):
    s = Strings()
    a = Archive(path)
    t0 = 1_000
    locs = [(0, 0), (1 << 32, 0), (1, 1), ((1 << 32) + 1, 1)]  # (location, process)
    for loc, proc in locs:
        w = a.events(loc)
        t = t0 + loc % 7
        if loc < (1 << 32):
            w.ProgramBegin(t, s("./threads.x"), [])
        w.Enter(t, 0)
        for i in range(50):
            w.Enter(t + 10 * i, 1)
            w.Metric(t + 10 * i + 1, 0, [T_UINT64], metric_values(("uint", i)))
            w.Leave(t + 10 * i + 5, 1)
        w.Leave(t + 600, 0)
        if loc < (1 << 32):
            w.ProgramEnd(t + 601, 0)

    def globals_(g, arch):
        write_clock(g, arch, 1_000_000)
        gdef(g, _otf2.GlobalDefWriter_WriteSystemTreeNode, 0, s("host"), s("node"), UNDEF32)
        gdef(g, _otf2.GlobalDefWriter_WriteLocationGroup, 0, s("Process 0"), LG_PROCESS, 0, UNDEF32)
        gdef(g, _otf2.GlobalDefWriter_WriteLocationGroup, 1, s("Process 1"), LG_PROCESS, 0, UNDEF32)
        write_locations(g, arch, [(loc, s("thread %d" % (loc >> 32)), LOC_CPU_THREAD, proc) for loc, proc in locs])
        gdef(g, _otf2.GlobalDefWriter_WriteRegion, 0, s("main"), s("main"), s(""), ROLE_FUNCTION, PARADIGM_USER, 0,
                                          s("threads.c"), 1, 50)
        gdef(g, _otf2.GlobalDefWriter_WriteRegion, 1, s("work"), s("work"), s(""), ROLE_FUNCTION, PARADIGM_PTHREAD, 0,
                                          s("threads.c"), 5, 9)
        gdef(g, _otf2.GlobalDefWriter_WriteMetricMember, 0, s("counter"), s(""), 0, 0, T_UINT64, 1, 0, s("#"))
        gdef(g, _otf2.GlobalDefWriter_WriteMetricClass, 0, [0], 0, 2)
        g.strings = s

    a.finish(globals_)


FIXTURES = {"records": records, "mapped": mapped, "nompi": nompi}

if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, make in FIXTURES.items():
        target = os.path.join(out, name)
        if os.path.exists(os.path.join(target, "traces.otf2")):
            continue
        make(target)
