package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.replay.RegionClass;
import dev.straggler.replay.RegionTable;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;

import java.util.regex.Pattern;

/**
 * Which time metrics a region's exclusive time counts towards: Scalasca's call-path masks of the remap
 * specification ({@code scout.spec.in}, reference §1.2), decided by region paradigm, role and name. A metric
 * such as {@code mpi_point2point} is the exclusive time of the call paths in its mask, summed; the parents
 * ({@code mpi_communication}, {@code mpi}) include their children's masks, and {@code comp} is execution time
 * outside MPI and the other parallel runtimes.
 */
final class TimeMasks {
    private TimeMasks() {
    }

    private static final Pattern INIT_EXIT = Pattern.compile("^MPI_(Init(_thread|ialized)?|Finalize(d)?)$");
    private static final Pattern MGMT_COMM = Pattern.compile("^MPI_(Cart_(coords|create|get|map|rank|shift|sub)"
            + "|Cartdim_get|Comm_(accept|compare|connect|create(_group|_keyval)?|delete_attr|disconnect"
            + "|dup(_with_info)?|free(_keyval)?|get_(attr|info|name|parent)|group|idup|join|rank|remote_(group|size)"
            + "|set_(attr|info|name)|size|spawn(_multiple)?|split(_type)?|test_inter)|Dims_create"
            + "|Dist_graph_(create(_adjacent)?|neighbors(_count)?)|Graph_(create|get|map|neighbors(_count)?)"
            + "|Graphdims_get|Intercomm_(create|merge)|Topo_test|(Close|Open)_port|(Lookup|Publish|Unpublish)_name)$");
    static final Pattern MGMT_FILE = Pattern.compile("^MPI_File_(close|delete|get_(amode|atomicity"
            + "|byte_offset|group|info|position(_shared)?|size|type_extent|view)|open|preallocate|seek(_shared)?"
            + "|set_(atomicity|info|size|view)|sync)$");
    private static final Pattern MGMT_WIN = Pattern.compile("^MPI_Win_(allocate(_shared)?|attach"
            + "|create(_dynamic|_keyval)?|delete_attr|detach|free(_keyval)?|get_(attr|group|info|name)"
            + "|set_(attr|info|name)|shared_query)$");
    static final Pattern RMA_SYNC_ACTIVE = Pattern.compile("^MPI_Win_(complete|fence|post|start|test|wait)$");
    static final Pattern RMA_SYNC_PASSIVE = Pattern.compile("^MPI_Win_((flush(_local)?|lock|unlock)(_all)?|sync)$");
    private static final Pattern P2P_COMPLETION = Pattern.compile("^MPI_(Test|Wait)(all|any|some)?$");
    static final Pattern FILE_INDIVIDUAL = Pattern.compile("^MPI_File_i?(read|write)(_at|_shared)?$");
    static final Pattern FILE_COLLECTIVE = Pattern.compile("^MPI_File_((iread|iwrite)_(all|at_all)"
            + "|(read|write)_(all|at_all|ordered)(_begin|_end)?)$");

    /** The OpenMP lock routines ({@code omp_lock_api} of the remapping specification). */
    private static final Pattern OMP_LOCK_API = Pattern.compile("^omp_(destroy|init|set|test|unset)(_nest)?_lock$");

    /** The OpenMP synchronization and flush metrics of a region of paradigm OpenMP (docs/openmp.md §3.3), or 0. */
    private static long openMp(Region r) {
        long sync = bit(MetricTree.OMP_TIME) | bit(MetricTree.OMP_SYNCHRONIZATION);
        switch (r.role()) {
            case BARRIER -> {
                return sync | bit(MetricTree.OMP_BARRIER) | bit(MetricTree.OMP_EBARRIER);
            }
            case IMPLICIT_BARRIER -> {
                return sync | bit(MetricTree.OMP_BARRIER) | bit(MetricTree.OMP_IBARRIER);
            }
            case CRITICAL, ATOMIC -> {
                return sync | bit(MetricTree.OMP_CRITICAL);
            }
            case ORDERED -> {
                return sync | bit(MetricTree.OMP_ORDERED);
            }
            case TASK_WAIT -> {
                return sync | bit(MetricTree.OMP_TASKWAIT);
            }
            case FLUSH -> {
                return bit(MetricTree.OMP_TIME) | bit(MetricTree.OMP_FLUSH);
            }
            default -> {
                return OMP_LOCK_API.matcher(r.name()).matches() ? sync | bit(MetricTree.OMP_LOCK_API) : 0;
            }
        }
    }

    /**
     * The metrics a mask can hold, one bit each: the categories of time the remapping assigns by region (the wait
     * states and the other computed metrics are not among them), in tree order.
     */
    private static final int[] MASKED = {MetricTree.TIME, MetricTree.EXECUTION, MetricTree.COMP, MetricTree.MPI,
            MetricTree.MPI_MANAGEMENT, MetricTree.MPI_INIT_EXIT, MetricTree.MPI_MGMT_COMM, MetricTree.MPI_MGMT_FILE,
            MetricTree.MPI_MGMT_WIN, MetricTree.MPI_SYNCHRONIZATION, MetricTree.MPI_SYNC_COLLECTIVE,
            MetricTree.MPI_RMA_SYNCHRONIZATION, MetricTree.MPI_RMA_SYNC_ACTIVE, MetricTree.MPI_RMA_SYNC_PASSIVE,
            MetricTree.MPI_COMMUNICATION, MetricTree.MPI_POINT2POINT, MetricTree.MPI_COLLECTIVE,
            MetricTree.MPI_RMA_COMMUNICATION, MetricTree.MPI_IO, MetricTree.MPI_IO_INDIVIDUAL,
            MetricTree.MPI_IO_COLLECTIVE, MetricTree.OMP_TIME, MetricTree.OMP_SYNCHRONIZATION, MetricTree.OMP_BARRIER,
            MetricTree.OMP_EBARRIER, MetricTree.OMP_IBARRIER, MetricTree.OMP_CRITICAL, MetricTree.OMP_LOCK_API,
            MetricTree.OMP_ORDERED, MetricTree.OMP_TASKWAIT, MetricTree.OMP_FLUSH, MetricTree.PTHREAD_TIME,
            MetricTree.PTHREAD_MANAGEMENT, MetricTree.PTHREAD_SYNCHRONIZATION, MetricTree.PTHREAD_LOCK_API,
            MetricTree.PTHREAD_CONDITIONAL, MetricTree.OVERHEAD};
    private static final int[] SLOT = new int[MetricTree.COUNT];

    static {
        java.util.Arrays.fill(SLOT, -1);
        for (int i = 0; i < MASKED.length; i++) {
            SLOT[MASKED[i]] = i;
        }
    }

    static long bit(int metric) {
        if (SLOT[metric] < 0) {
            throw new IllegalStateException("time metric " + MetricTree.ALL.get(metric).uniqueName() + " has no mask bit");
        }
        return 1L << SLOT[metric];
    }

    /** True when the mask holds the metric. */
    static boolean has(long mask, int metric) {
        return SLOT[metric] >= 0 && (mask & (1L << SLOT[metric])) != 0;
    }

    /** The metric of a mask's lowest set bit. */
    static int lowest(long mask) {
        return MASKED[Long.numberOfTrailingZeros(mask)];
    }

    /**
     * The POSIX threads metrics of a region of paradigm Pthread ({@link dev.straggler.patterns.PthreadApi}), or 0:
     * its time is then computation.
     */
    static long pthread(Region r) {
        long t = bit(MetricTree.PTHREAD_TIME);
        return switch (dev.straggler.patterns.PthreadApi.of(r)) {
            case MANAGEMENT -> t | bit(MetricTree.PTHREAD_MANAGEMENT);
            case MUTEX -> t | bit(MetricTree.PTHREAD_SYNCHRONIZATION) | bit(MetricTree.PTHREAD_LOCK_API);
            case CONDITION -> t | bit(MetricTree.PTHREAD_SYNCHRONIZATION) | bit(MetricTree.PTHREAD_CONDITIONAL);
            case NONE -> 0;
        };
    }

    /** Bit set over {@link MetricTree} indices, per region of the table. */
    static long[] of(RegionTable regions) {
        long[] masks = new long[regions.size()];
        for (int r = 0; r < masks.length; r++) {
            masks[r] = of(regions.region(r), regions.classOf(r));
        }
        return masks;
    }

    static long of(Region r, int cls) {
        long m = bit(MetricTree.TIME);
        String name = r.name();
        if (r.paradigm() == Paradigm.MEASUREMENT_SYSTEM && (name.equals(RegionTable.FLUSH_REGION) || name.equals("TRACING"))) {
            return m | bit(MetricTree.OVERHEAD);
        }
        m |= bit(MetricTree.EXECUTION);
        boolean mpi = (r.paradigm() == Paradigm.MPI || RegionClass.isMpi(cls)) && !name.equals("PARALLEL");
        if (!mpi && r.paradigm() == Paradigm.OPENMP) {
            long omp = openMp(r);
            // Scalasca's remapping counts every other OpenMP region (parallel, worksharing, master, single, the
            // block of a critical section) as computation; the management part is moved out of it separately
            return m | (omp == 0 ? bit(MetricTree.COMP) : omp);
        }
        if (!mpi && r.paradigm() == Paradigm.PTHREAD) {
            long pt = pthread(r);
            return m | (pt == 0 ? bit(MetricTree.COMP) : pt);
        }
        if (!mpi) {
            // Scalasca subtracts the time of other parallel runtimes from computation, besides MPI
            if (!dev.straggler.patterns.OtherParadigms.isOtherRuntime(r.paradigm())) {
                m |= bit(MetricTree.COMP);
            }
            return m;
        }
        m |= bit(MetricTree.MPI);
        if (INIT_EXIT.matcher(name).matches()) {
            m |= bit(MetricTree.MPI_MANAGEMENT) | bit(MetricTree.MPI_INIT_EXIT);
        }
        if (MGMT_COMM.matcher(name).matches()) {
            m |= bit(MetricTree.MPI_MANAGEMENT) | bit(MetricTree.MPI_MGMT_COMM);
        }
        if (MGMT_FILE.matcher(name).matches()) {
            m |= bit(MetricTree.MPI_MANAGEMENT) | bit(MetricTree.MPI_MGMT_FILE);
        }
        if (MGMT_WIN.matcher(name).matches()) {
            m |= bit(MetricTree.MPI_MANAGEMENT) | bit(MetricTree.MPI_MGMT_WIN);
        }
        if (r.role() == RegionRole.BARRIER) {
            m |= bit(MetricTree.MPI_SYNCHRONIZATION) | bit(MetricTree.MPI_SYNC_COLLECTIVE);
        }
        if (RMA_SYNC_ACTIVE.matcher(name).matches()) {
            m |= bit(MetricTree.MPI_SYNCHRONIZATION) | bit(MetricTree.MPI_RMA_SYNCHRONIZATION)
                    | bit(MetricTree.MPI_RMA_SYNC_ACTIVE);
        }
        if (RMA_SYNC_PASSIVE.matcher(name).matches()) {
            m |= bit(MetricTree.MPI_SYNCHRONIZATION) | bit(MetricTree.MPI_RMA_SYNCHRONIZATION)
                    | bit(MetricTree.MPI_RMA_SYNC_PASSIVE);
        }
        if (r.role() == RegionRole.POINT2POINT || P2P_COMPLETION.matcher(name).matches()) {
            m |= bit(MetricTree.MPI_COMMUNICATION) | bit(MetricTree.MPI_POINT2POINT);
        }
        if (r.role() == RegionRole.COLL_ONE2ALL || r.role() == RegionRole.COLL_ALL2ONE
                || r.role() == RegionRole.COLL_ALL2ALL || r.role() == RegionRole.COLL_OTHER) {
            m |= bit(MetricTree.MPI_COMMUNICATION) | bit(MetricTree.MPI_COLLECTIVE);
        }
        if (r.role() == RegionRole.RMA || r.role() == RegionRole.ATOMIC) {
            m |= bit(MetricTree.MPI_COMMUNICATION) | bit(MetricTree.MPI_RMA_COMMUNICATION);
        }
        if (FILE_INDIVIDUAL.matcher(name).matches()) {
            m |= bit(MetricTree.MPI_IO) | bit(MetricTree.MPI_IO_INDIVIDUAL);
        }
        if (FILE_COLLECTIVE.matcher(name).matches()) {
            m |= bit(MetricTree.MPI_IO) | bit(MetricTree.MPI_IO_COLLECTIVE);
        }
        return m;
    }
}
