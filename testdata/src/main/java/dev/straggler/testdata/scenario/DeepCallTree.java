package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.MpiCall;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Instrumentation overhead: each step descends a call chain {@code level_1 … level_depth} to a {@code kernel} that
 * calls four tiny helpers ({@code vec_get}, {@code index_of}, {@code flux_limiter}, {@code clamp}) {@code calls}
 * times each; the step ends with an MPI_Allreduce in {@code exchange}. With the defaults more than 98% of all
 * function ENTER/LEAVE events belong to the helpers, which are short and never communicate: the ground truth of
 * include-list generation is to exclude exactly them ({@link ExpectedSeverities.Filter}). Wait states are exact;
 * with {@code imbalance} the odd ranks' kernels take longer and the even ranks wait in the MPI_Allreduce.
 */
final class DeepCallTree extends SimulatedScenario {
    static final List<String> HELPERS = List.of("vec_get", "index_of", "flux_limiter", "clamp");

    DeepCallTree() {
        super("deep-calltree", "deep call chains whose kernels call tiny helpers: >98% of function events are short non-communicating calls (include-list ground truth)",
                false, List.of(
                        new ParamSpec("depth", "8", "call-chain depth above the kernel"),
                        new ParamSpec("calls", "250", "calls of each helper per kernel invocation"),
                        new ParamSpec("iterations", "20", "steps"),
                        new ParamSpec("helper", "5e-8", "duration of one helper call, s"),
                        new ParamSpec("kernel", "1e-4", "the kernel's own work per step, s"),
                        new ParamSpec("imbalance", "0", "extra kernel work of odd ranks per step, s")), Map.of());
    }

    private int depth(Params p) {
        return p.count("depth", 0, 10_000);
    }

    private int calls(Params p) {
        return p.count("calls", 0, 1 << 30);
    }

    private int iterations(Params p) {
        return p.count("iterations", 0, 1 << 30);
    }

    private long step(Params p, int rank) {
        return p.duration("kernel") + (rank % 2 == 1 ? p.duration("imbalance") : 0) + 4L * calls(p) * p.duration("helper");
    }

    @Override
    protected Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("solver.c");
        long h = p.duration("helper");
        long kernelWork = p.duration("kernel");
        long imbalance = p.duration("imbalance");
        List<Node> helperCalls = new ArrayList<>();
        for (int i = 0; i < HELPERS.size(); i++) {
            helperCalls.add(b.call(HELPERS.get(i), "kernels.c", 10 + 20 * i, b.compute(h)));
        }
        Node inner = b.call("kernel", "kernels.c", 100,
                b.compute(c -> kernelWork + (c.rank() % 2 == 1 ? imbalance : 0)),
                b.loop(calls(p), helperCalls.toArray(new Node[0])));
        for (int d = depth(p); d >= 1; d--) {
            inner = b.call("level_" + d, 200 + 10 * d, inner);
        }
        Node step = b.call("solve_step", 100, inner, b.call("exchange", 150, b.allreduce(Program.WORLD, c -> 8)));
        return b.program("main", 10, b.loop(iterations(p), step));
    }

    @Override
    protected void expect(Params p, ExpectedBuilder e) {
        int n = p.ranks();
        int[] world = ClosedForm.identity(n);
        long[] clock = ClosedForm.init(p, e);
        List<String> at = List.of("main", "solve_step", "exchange", "MPI_Allreduce");
        for (int it = 0; it < iterations(p); it++) {
            for (int r = 0; r < n; r++) {
                clock[r] += step(p, r);
            }
            ClosedForm.collective(p, e, MpiCall.ALLREDUCE, world, clock, 8, -1, at);
        }
        ClosedForm.finalize(p, e, clock);

        long its = iterations(p);
        Map<String, Long> visits = new LinkedHashMap<>();
        List<String> keep = new ArrayList<>(List.of("main", "solve_step"));
        visits.put("main", 1L);
        visits.put("solve_step", its);
        for (int d = 1; d <= depth(p); d++) {
            keep.add("level_" + d);
            visits.put("level_" + d, its);
        }
        keep.add("kernel");
        keep.add("exchange");
        visits.put("kernel", its);
        visits.put("exchange", its);
        for (String h : HELPERS) {
            visits.put(h, its * calls(p));
        }
        long helperEvents = 2L * HELPERS.size() * calls(p) * its;
        // every ENTER/LEAVE: main, MPI_Init, MPI_Finalize, and per step solve_step, the levels, kernel, exchange,
        // MPI_Allreduce and the helper calls
        long allEvents = 2L * 3 + its * 2L * (depth(p) + 4) + helperEvents;
        e.filter(new ExpectedSeverities.Filter(HELPERS, keep, visits, allEvents == 0 ? 0 : helperEvents / (double) allEvents));
        e.note("exclude: called " + its * calls(p) + " times per rank, " + p.real("helper") * 1e9
                + " ns per call, no MPI below; keep: MPI below (main, solve_step, exchange) or long per visit (the chain, kernel)");
    }
}
