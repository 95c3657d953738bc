package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.NetworkModel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A scenario whose root causes (reference §1.6: delay costs, wait-state classes, critical path) follow in closed
 * form from Scalasca 2.6's definitions, besides its wait states.
 *
 * <p>The wait states are exact for any network parameters, like every scenario's. The root causes are predicted
 * for the network these scenarios default to: no latency and no call overhead (messages of 0 bytes arrive when
 * they are sent, calls that do not wait take no time; collectives cost only their bandwidth term), no exit
 * stagger and true clocks. Then every synchronisation leaves its partners at the same instant, and the time maps
 * of Scalasca's synchronisation intervals hold only the scenario's user functions, which is what makes the
 * closed forms short. With other parameters the expectation lists the wait states only, and says so in a note.
 */
abstract class RootCauseScenario extends SimulatedScenario {
    private static final Map<String, String> IDEAL_NETWORK = Map.of("latency", "0", "overhead", "0");

    RootCauseScenario(String name, String description, List<ParamSpec> own) {
        super(name, description, false, own, IDEAL_NETWORK);
    }

    @Override
    public int minRanks() {
        return 2;
    }

    /**
     * The wait states of the program between MPI_Init and MPI_Finalize.
     *
     * @param clock per rank, the true time it leaves MPI_Init; to be advanced to when it enters MPI_Finalize
     */
    protected abstract void timeline(Params p, ExpectedBuilder e, long[] clock);

    /** The metrics {@link #rootCauses} predicts everywhere: zero wherever it adds nothing. */
    protected abstract List<String> rootCauseMetrics();

    /** Adds the closed-form root causes; called only for the network of {@link #ideal}. */
    protected abstract void rootCauses(Params p, ExpectedBuilder e);

    @Override
    protected final void expect(Params p, ExpectedBuilder e) {
        long[] clock = ClosedForm.init(p, e);
        timeline(p, e, clock);
        ClosedForm.finalize(p, e, clock);
        if (ideal(p)) {
            e.covers(rootCauseMetrics());
            rootCauses(p, e);
        } else {
            e.note("root causes are predicted only with latency=0, overhead=0, stagger=0 and true clocks");
        }
    }

    /** Whether the root-cause closed forms apply: no latency, no call overhead, no exit stagger, true clocks. */
    static boolean ideal(Params p) {
        NetworkModel net = p.network();
        return net.latency() == 0 && net.overhead() == 0 && net.exitStagger() == 0 && p.integer("skew.rank") < 0;
    }

    /** The rank given by parameter {@code name}, which must exist at this rank count. */
    static int rank(Params p, String name) {
        long r = p.integer(name);
        if (r < 0 || r >= p.ranks()) {
            throw p.bad(name, "must be a rank below " + p.ranks());
        }
        return (int) r;
    }

    /** A call path from the root: [main, names...]. */
    static List<String> path(String... names) {
        List<String> l = new ArrayList<>(names.length + 1);
        l.add("main");
        l.addAll(List.of(names));
        return l;
    }

    /** Metrics of several groups, in order. */
    @SafeVarargs
    static List<String> metrics(List<String>... groups) {
        List<String> l = new ArrayList<>();
        for (List<String> g : groups) {
            l.addAll(g);
        }
        return List.copyOf(l);
    }
}
