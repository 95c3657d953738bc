package dev.straggler.testdata.scenario;

import dev.straggler.testdata.ExpectedSeverities;
import dev.straggler.testdata.GeneratedTrace;
import dev.straggler.testdata.ParamSpec;
import dev.straggler.testdata.Scenario;
import dev.straggler.testdata.ScenarioParams;
import dev.straggler.testdata.sim.Program;
import dev.straggler.testdata.sim.SimOptions;
import dev.straggler.testdata.sim.SimResult;
import dev.straggler.testdata.sim.Simulator;
import dev.straggler.testdata.sim.ThreadModel;
import dev.straggler.trace.Experiment;
import dev.straggler.trace.TraceWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A scenario made of a simulated {@link Program} and a closed-form expectation. The two are written separately:
 * {@link #program} says what each rank does, {@link #expect} derives the wait states from the parameters with the
 * simulator's cost model and Scalasca's definitions, without running the simulator.
 */
public abstract class SimulatedScenario implements Scenario {
    private final String name;
    private final String description;
    private final boolean family;
    private final List<ParamSpec> parameters;

    protected SimulatedScenario(String name, String description, boolean family, List<ParamSpec> own,
                                Map<String, String> commonDefaults) {
        this.name = name;
        this.description = description;
        this.family = family;
        List<ParamSpec> all = new ArrayList<>(own);
        all.addAll(Params.common(commonDefaults));
        this.parameters = List.copyOf(all);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final List<ParamSpec> parameters() {
        return parameters;
    }

    @Override
    public final boolean scalingFamily() {
        return family;
    }

    /** The program every rank runs. */
    protected abstract Program program(Params p);

    /** Fills the closed-form expectation; must not run the simulator. */
    protected abstract void expect(Params p, ExpectedBuilder e);

    /** Rejects parameter combinations and rank counts the scenario cannot honour. */
    protected void check(Params p) {
        if (p.ranks() < minRanks()) {
            throw new IllegalArgumentException("scenario " + name + " needs at least " + minRanks() + " ranks, got " + p.ranks());
        }
    }

    /** The cost model of OpenMP thread teams; programs without parallel regions do not use it. */
    protected ThreadModel threadModel(Params p) {
        return ThreadModel.FREE;
    }

    /** The experiment metadata written with the trace. */
    protected Experiment experiment(Params p) {
        return new Experiment(name, p.ranks(), p.values());
    }

    protected final Params resolve(ScenarioParams sp) {
        Params p = Params.resolve(name, parameters, sp);
        check(p);
        return p;
    }

    @Override
    public final ExpectedSeverities expected(ScenarioParams params) {
        Params p = resolve(params);
        ExpectedBuilder e = new ExpectedBuilder(name, p);
        expect(p, e);
        return e.build();
    }

    @Override
    public final GeneratedTrace generate(ScenarioParams params, TraceWriter out) throws IOException {
        ExpectedSeverities expected = expected(params);
        Params p = resolve(params);
        SimOptions options = SimOptions.of(p.network(), p.seed(), experiment(p)).withSkew(p.skew())
                .withThreads(threadModel(p));
        SimResult r = new Simulator(program(p), p.ranks(), options).run(out);
        return new GeneratedTrace(expected, r.definitions(), r.events());
    }

    @Override
    public String toString() {
        return name;
    }
}
