package dev.straggler.patterns.callsite;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;

import java.util.Locale;
import java.util.Set;

/**
 * What an MPI call does, from its region name, following Scalasca's classification of MPI regions
 * (reference §1.1, {@code Region.cpp::classify_mpi}): the name is lower-cased and the {@code MPI_} prefix dropped.
 * Non-MPI regions are {@link #COMPUTATION}.
 *
 * <p>A region counts as MPI when its paradigm is MPI, when its source file is the string {@code "MPI"} (what
 * Score-P writes and Scalasca tests), or when its name starts with {@code MPI_} (traces without paradigm
 * information, e.g. hand-written ones).
 */
public enum MpiCallKind {
    COMPUTATION("computation"),
    POINT_TO_POINT("point-to-point communication"),
    COLLECTIVE("collective communication"),
    /** MPI_Barrier: Scalasca files it under synchronization, not communication (reference §1.2). */
    SYNCHRONIZATION("synchronization"),
    /** Init/Finalize and communicator, group, topology management. */
    MANAGEMENT("MPI management"),
    FILE_IO("MPI file I/O"),
    ONE_SIDED("one-sided communication"),
    OTHER_MPI("other MPI");

    private static final Set<String> COLLECTIVES = Set.of("bcast", "scatter", "scatterv", "reduce", "gather",
            "gatherv", "allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "alltoallw",
            "reduce_scatter", "reduce_scatter_block", "scan", "exscan");

    private final String description;

    MpiCallKind(String description) {
        this.description = description;
    }

    /** Words for reports ("collective communication"). */
    public String description() {
        return description;
    }

    public boolean isMpi() {
        return this != COMPUTATION;
    }

    public static boolean isMpi(Region r) {
        // the name decides only when the trace says nothing about the paradigm: a user function may well be
        // called mpi_something (the APART suite's mpi_commpattern_sendrecv is one)
        return r.paradigm() == Paradigm.MPI || "MPI".equals(r.sourceFile())
                || (r.paradigm() == Paradigm.UNKNOWN && r.name().startsWith("MPI_"));
    }

    public static MpiCallKind of(Region r) {
        return isMpi(r) ? ofMpiName(r.name()) : COMPUTATION;
    }

    /** Classifies the name of an MPI call, with or without its {@code MPI_} prefix ("MPI_Allreduce", "Allreduce"). */
    public static MpiCallKind ofMpiName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.startsWith("mpi_")) {
            n = n.substring(4);
        }
        // Non-blocking collectives (MPI-3 "i" prefix) behave like their blocking forms for classification.
        String blocking = n.startsWith("i") && COLLECTIVES.contains(n.substring(1)) ? n.substring(1) : n;
        if (blocking.equals("barrier") || blocking.equals("ibarrier")) {
            return SYNCHRONIZATION;
        }
        if (COLLECTIVES.contains(blocking) || blocking.startsWith("neighbor_") || blocking.startsWith("ineighbor_")) {
            return COLLECTIVE;
        }
        if (n.startsWith("file_")) {
            return FILE_IO;
        }
        if (n.startsWith("win_") || n.equals("put") || n.equals("get") || n.equals("accumulate")
                || n.equals("get_accumulate") || n.equals("fetch_and_op") || n.equals("compare_and_swap")
                || n.startsWith("rput") || n.startsWith("rget") || n.startsWith("raccumulate")) {
            return ONE_SIDED;
        }
        if (n.contains("send") || n.contains("recv") || n.startsWith("wait") || n.startsWith("test")
                || n.contains("probe") || n.startsWith("start") || n.startsWith("request") || n.equals("cancel")
                || n.startsWith("buffer") || n.equals("get_count")) {
            return POINT_TO_POINT;
        }
        if (n.startsWith("init") || n.startsWith("finalize") || n.startsWith("comm_") || n.startsWith("cart_")
                || n.startsWith("graph_") || n.startsWith("group_") || n.startsWith("intercomm_")
                || n.startsWith("dist_graph") || n.startsWith("type_") || n.equals("initialized")
                || n.equals("finalized") || n.equals("abort") || n.equals("pcontrol") || n.startsWith("wtime")
                || n.startsWith("wtick") || n.startsWith("get_") || n.startsWith("errhandler")
                || n.startsWith("op_") || n.startsWith("info_") || n.startsWith("keyval") || n.startsWith("attr_")) {
            return MANAGEMENT;
        }
        return OTHER_MPI;
    }
}
