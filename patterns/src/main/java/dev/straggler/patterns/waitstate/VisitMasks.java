package dev.straggler.patterns.waitstate;

import dev.straggler.patterns.MetricTree;
import dev.straggler.patterns.cube.CallPath;
import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;

import java.util.regex.Pattern;

/**
 * The count metrics Scalasca's remap specification derives from visits ({@code scout.spec.in}, the
 * {@code PREDERIVED_EXCLUSIVE} metrics "mask × visits(e)"): one-sided synchronizations and communications, and MPI
 * file operations. Each is the call path's exclusive visit count where the called MPI region is in the metric's
 * mask; a parent ({@code syncs}, {@code comms}, {@code mpi_file_ops}) includes its children, as every value of a
 * cube does.
 *
 * <p>The masks follow the specification exactly, including its quirk that file management calls count as file
 * operations: those whose name contains {@code delete}, {@code get} or {@code seek} as individual, the others
 * (open, close, set_view, ...) as collective.
 */
final class VisitMasks {
    private VisitMasks() {
    }

    private static final Pattern PUTS = Pattern.compile("^MPI_(Put|Rput)$");
    private static final Pattern GETS = Pattern.compile("^MPI_(Get|Rget)$");
    private static final Pattern INDIVIDUAL_MGMT = Pattern.compile("delete|get|seek");

    /** Adds the visit-derived counts to {@code cube}, whose visits are complete. */
    static void addTo(SeverityCube cube, long[] timeMasks) {
        int[][] chains = new int[cube.regions().size()][];
        boolean any = false;
        for (int i = 0; i < chains.length; i++) {
            // the cube's regions are the replay's region table, in its order
            chains[i] = i < timeMasks.length ? chain(cube.regions().get(i), timeMasks[i]) : null;
            any |= chains[i] != null;
        }
        if (!any) {
            return;
        }
        for (CallPath p : cube.callPaths()) {
            int[] chain = chains[p.region()];
            double[] visits = chain == null ? null : cube.rowOrNull(MetricTree.VISITS, p.id());
            if (visits == null) {
                continue;
            }
            for (int l = 0; l < visits.length; l++) {
                if (visits[l] != 0) {
                    for (int m : chain) {
                        cube.add(m, p.id(), l, visits[l]);
                    }
                }
            }
        }
    }

    /** Every count metric a visit of the region adds to (leaf and ancestors, each once), or null for none. */
    static int[] chain(Region r, long timeMask) {
        if (!TimeMasks.has(timeMask, MetricTree.MPI)) {
            return null;
        }
        String name = r.name();
        it.unimi.dsi.fastutil.ints.IntLinkedOpenHashSet out = new it.unimi.dsi.fastutil.ints.IntLinkedOpenHashSet();
        if (TimeMasks.RMA_SYNC_ACTIVE.matcher(name).matches()) {
            out.add(MetricTree.SYNCS_RMA_ACTIVE);
            out.add(MetricTree.SYNCS_RMA);
            out.add(MetricTree.SYNCS);
        }
        if (TimeMasks.RMA_SYNC_PASSIVE.matcher(name).matches()) {
            out.add(MetricTree.SYNCS_RMA_PASSIVE);
            out.add(MetricTree.SYNCS_RMA);
            out.add(MetricTree.SYNCS);
        }
        if (r.role() == RegionRole.RMA || r.role() == RegionRole.ATOMIC) {
            boolean put = PUTS.matcher(name).matches();
            boolean get = GETS.matcher(name).matches();
            boolean atomic = r.role() == RegionRole.ATOMIC;
            if (put) {
                out.add(MetricTree.COMMS_RMA_PUTS);
            }
            if (get) {
                out.add(MetricTree.COMMS_RMA_GETS);
            }
            if (atomic) {
                out.add(MetricTree.COMMS_RMA_ATOMICS);
            }
            if (put || get || atomic) {
                // comms_rma is the sum of its three children (POSTDERIVED), not every one-sided call
                out.add(MetricTree.COMMS_RMA);
                out.add(MetricTree.COMMS);
            }
        }
        boolean individual = false;
        boolean collective = false;
        if (TimeMasks.MGMT_FILE.matcher(name).matches()) {
            if (INDIVIDUAL_MGMT.matcher(name).find()) {
                individual = true;
            } else {
                collective = true;
            }
        }
        if (TimeMasks.FILE_INDIVIDUAL.matcher(name).matches()) {
            individual = true;
            out.add(name.contains("read") ? MetricTree.MPI_FILE_IROPS : MetricTree.MPI_FILE_IWOPS);
        }
        if (TimeMasks.FILE_COLLECTIVE.matcher(name).matches()) {
            collective = true;
            out.add(name.contains("read") ? MetricTree.MPI_FILE_CROPS : MetricTree.MPI_FILE_CWOPS);
        }
        if (individual) {
            out.add(MetricTree.MPI_FILE_IOPS);
        }
        if (collective) {
            out.add(MetricTree.MPI_FILE_COPS);
        }
        if (individual || collective) {
            out.add(MetricTree.MPI_FILE_OPS);
        }
        return out.isEmpty() ? null : out.toIntArray();
    }
}
