package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.sim.Node;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.ProgramBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An APART Test Suite property (reference §7): {@code main} calls MPI_Init, optionally splits MPI_COMM_WORLD,
 * repeats the property function {@code reps} times on the chosen communicator, and calls MPI_Finalize.
 *
 * <p>Parameter {@code comm}: {@code world}; {@code halves} (MPI_Comm_split into ranks below p/2 and the others,
 * the property runs in each half); {@code self} (every rank alone: size-1 communicators, whose collectives
 * Scalasca excludes, so only Init/Finalize wait states remain).
 *
 * <p>The closed form follows the same skeleton: every rank enters MPI_Init at 0, which ends like a barrier; the
 * split (also barrier-like, no wait state: Scalasca treats CREATE_HANDLE like Alltoallv); then each communicator's
 * property timeline, computed by the subclass from each rank's start time; then MPI_Finalize, whose wait is
 * predicted from when each rank's last repetition ended.
 */
abstract class AtsScenario extends SimulatedScenario {
    protected final String property;

    AtsScenario(String name, String description, List<ParamSpec> own, Map<String, String> commonDefaults) {
        super(name, description, false, withSkeleton(own), commonDefaults);
        this.property = name.replace('-', '_');
    }

    private static List<ParamSpec> withSkeleton(List<ParamSpec> own) {
        List<ParamSpec> all = new ArrayList<>(own);
        if (all.stream().noneMatch(s -> s.name().equals("reps"))) {
            all.add(new ParamSpec("reps", "3", "repetitions of the property function"));
        }
        if (all.stream().noneMatch(s -> s.name().equals("comm"))) {
            all.add(new ParamSpec("comm", "world", "communicator: world, halves (MPI_Comm_split in two), self (size-1 communicators)"));
        }
        return all;
    }

    /** One repetition of the property, on the communicator in {@code slot}. */
    protected abstract Node repetition(ProgramBuilder b, Params p, int slot);

    /**
     * The closed-form timeline of all repetitions on one communicator.
     *
     * @param members global ranks of the communicator, in communicator-rank order
     * @param clock   per global rank: the true time it starts the first repetition; to be advanced to the time it
     *                ends the last
     */
    protected abstract void expectGroup(Params p, ExpectedBuilder e, int[] members, long[] clock);

    protected int reps(Params p) {
        return p.count("reps", 0, 1_000_000);
    }

    @Override
    protected final Program program(Params p) {
        ProgramBuilder b = new ProgramBuilder("ats.c");
        String comm = p.choice("comm", "world", "halves", "self");
        int slot = Program.WORLD;
        Node split = null;
        if (!comm.equals("world")) {
            slot = b.newCommSlot();
            split = comm.equals("halves")
                    ? b.commSplit(Program.WORLD, c -> c.rank() < c.size() / 2 ? 0 : 1, c -> c.rank(), slot)
                    : b.commSplit(Program.WORLD, c -> c.rank(), c -> 0, slot);
        }
        Node body = b.loop(reps(p), b.call(property, 100, repetition(b, p, slot)));
        return split == null ? b.program("main", 20, body) : b.program("main", 20, split, body);
    }

    @Override
    protected final void expect(Params p, ExpectedBuilder e) {
        long[] clock = ClosedForm.init(p, e);
        String comm = p.choice("comm", "world", "halves", "self");
        if (!comm.equals("world")) {
            ClosedForm.splitWorld(p, clock);
        }
        for (int[] g : groups(comm, p.ranks())) {
            expectGroup(p, e, g, clock);
        }
        ClosedForm.finalize(p, e, clock);
    }

    /** The communicators the property runs on, as global ranks in communicator-rank order. */
    static List<int[]> groups(String comm, int n) {
        List<int[]> g = new ArrayList<>();
        switch (comm) {
            case "world" -> g.add(range(0, n));
            case "halves" -> {
                if (n / 2 > 0) {
                    g.add(range(0, n / 2));
                }
                g.add(range(n / 2, n));
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    g.add(new int[] {i});
                }
            }
        }
        return g;
    }

    private static int[] range(int from, int to) {
        int[] r = new int[to - from];
        for (int i = 0; i < r.length; i++) {
            r[i] = from + i;
        }
        return r;
    }

    /** A call path below this property function: [main, property, tail...]. */
    protected List<String> path(String... tail) {
        List<String> l = new ArrayList<>(tail.length + 2);
        l.add("main");
        l.add(property);
        l.addAll(List.of(tail));
        return l;
    }
}
