package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.Distribution;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ATS imbalance and rooted-collective properties (reference §7): {@code do_work} distributed by an ATS
 * distribution function, then one collective. Covers imbalance at barrier / alltoall / allreduce / allgather,
 * late broadcast and scatter (df_peak: the root works longer), early reduce and gather (the root works less),
 * early scan, barrier and N×N completion (ranks leave one {@code stagger} after another), and the excluded cases
 * (Alltoallv, size-1 communicators), which must show no collective wait state.
 *
 * <p>Closed form per repetition: rank j begins at start_j + w_j; it ends at the arrivals it depends on
 * ({@link MpiCall.Sync}) + the collective's cost + stagger × j; waits and completions follow from Scalasca's
 * rules ({@link ScalascaRules}), e.g. Wait at Barrier = max_k w_k − w_j for synchronised starts.
 */
final class CollectiveScenario extends AtsScenario {
    private final MpiCall call;

    CollectiveScenario(String name, String description, MpiCall call, Map<String, String> defaults,
                       Map<String, String> commonDefaults) {
        super(name, description, params(defaults), commonDefaults);
        this.call = call;
    }

    private static List<ParamSpec> params(Map<String, String> d) {
        List<ParamSpec> l = new ArrayList<>(List.of(
                new ParamSpec("dist", d.getOrDefault("dist", "cyclic2"), "work distribution: same, cyclic2, block2, linear, peak"),
                new ParamSpec("low", d.getOrDefault("low", "0.01"), "work of 'same'; low value of the others (linear: rank 0), s"),
                new ParamSpec("high", d.getOrDefault("high", "0.05"), "high value (linear: last rank; peak: the peak rank), s"),
                new ParamSpec("peak", d.getOrDefault("peak", "0"), "rank (in the communicator) that gets 'high' under peak"),
                new ParamSpec("root", d.getOrDefault("root", "0"), "root of rooted collectives (rank in the communicator)"),
                new ParamSpec("bytes", d.getOrDefault("bytes", "8"), "payload per rank, bytes")));
        if (d.containsKey("comm")) {
            l.add(new ParamSpec("comm", d.get("comm"), "communicator: world, halves (MPI_Comm_split in two), self (size-1 communicators)"));
        }
        return l;
    }

    private Distribution distribution(Params p) {
        return new Distribution(Distribution.Kind.parse(p.text("dist")), p.duration("low"), p.duration("high"),
                (int) p.integer("peak"));
    }

    @Override
    protected void check(Params p) {
        super.check(p);
        distribution(p);
        if (call.isRooted()) {
            long root = p.integer("root");
            for (int[] g : groups(p.choice("comm", "world", "halves", "self"), p.ranks())) {
                if (root < 0 || root >= g.length) {
                    throw p.bad("root", "must be a rank of every communicator (smallest has " + g.length + " ranks)");
                }
            }
        }
    }

    private long payload(Params p, int size) {
        long n = p.integer("bytes");
        return call == MpiCall.ALLTOALLV ? n * size : n;
    }

    @Override
    protected Node repetition(ProgramBuilder b, Params p, int slot) {
        Distribution d = distribution(p);
        int root = (int) p.integer("root");
        long n = p.integer("bytes");
        Node op = switch (call) {
            case BARRIER -> b.barrier(slot);
            case BCAST -> b.bcast(slot, root, c -> n);
            case SCATTER -> b.scatter(slot, root, c -> n);
            case GATHER -> b.gather(slot, root, c -> n);
            case REDUCE -> b.reduce(slot, root, c -> n);
            case ALLREDUCE -> b.allreduce(slot, c -> n);
            case ALLGATHER -> b.allgather(slot, c -> n);
            case ALLTOALL -> b.alltoall(slot, c -> n);
            case ALLTOALLV -> b.alltoallv(slot, c -> n * c.commSize(slot), c -> n * c.commSize(slot));
            case SCAN -> b.scan(slot, c -> n);
            default -> throw new IllegalArgumentException(call + " is not a collective of this scenario");
        };
        return b.seq(b.call("do_work", 30, b.compute(c -> d.ticks(c.commRank(slot), c.commSize(slot)))), op);
    }

    @Override
    protected void expectGroup(Params p, ExpectedBuilder e, int[] m, long[] clock) {
        Distribution d = distribution(p);
        int size = m.length;
        int root = call.isRooted() ? (int) p.integer("root") : -1;
        long n = payload(p, size);
        List<String> at = path(call.regionName());
        for (int rep = 0; rep < reps(p); rep++) {
            for (int j = 0; j < size; j++) {
                clock[m[j]] += d.ticks(j, size);
            }
            ClosedForm.collective(p, e, call, m, clock, n, root, at);
        }
    }
}
