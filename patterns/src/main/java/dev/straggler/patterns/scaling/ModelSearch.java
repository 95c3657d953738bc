package dev.straggler.patterns.scaling;

import java.util.ArrayList;
import java.util.List;

/** Fits an Extra-P normal-form model to each series that has enough process counts. */
public final class ModelSearch {

    /** Which search chooses among the normal-form hypotheses. */
    public enum Search {
        /**
         * Straggler's own search ({@link PmnfModeler}): every p^(i/j)·log2(p)^k of 20 exponents × 3 log powers and,
         * for strong scaling, their negations (116 hypotheses), scored by leave-one-out SMAPE; the simpler model is
         * kept unless a richer one has a significant coefficient and clearly lower score.
         */
        STRAGGLER("Straggler's search: 116 hypotheses c0 + c1*p^i*log2(p)^j (negative exponents included) scored by "
                + "leave-one-out SMAPE; the simpler model (constant < p^i or log2(p)^j < p^i*log2(p)^j) is kept unless "
                + "the richer one's coefficient is significant (F-test, 5 %) and it at least halves the SMAPE (and "
                + "lowers the constant's by 1 point or more)"),
        /** Extra-P 4.2.5's default choice ({@link ExtraPModeler}). */
        EXTRA_P("Extra-P-compatible search: Extra-P 4.2.5's 42 hypotheses c0 + c1*p^i*log2(p)^j, the constant "
                + "scored in-sample, the others by leave-one-out SMAPE");

        private final String description;

        Search(String description) {
            this.description = description;
        }

        public String description() {
            return description;
        }
    }

    /** With {@link Search#EXTRA_P} the options are Extra-P's own and {@code o} is not used. */
    public static List<SeriesModel> fitAll(List<MeasurementSeries> series, PmnfModeler.Options o, Search search) {
        List<SeriesModel> out = new ArrayList<>();
        for (MeasurementSeries s : series) {
            try {
                PmnfModel m = search == Search.EXTRA_P ? ExtraPModeler.fit(s.p(), s.values())
                        : PmnfModeler.fit(s.p(), s.values(), o);
                out.add(new SeriesModel(s, m, null));
            } catch (IllegalArgumentException e) {
                out.add(new SeriesModel(s, null, e.getMessage()));
            }
        }
        return out;
    }

    /** A series with its model, or the reason it has none ({@code model == null}). */
    public record SeriesModel(MeasurementSeries series, PmnfModel model, String reason) {
    }

    private ModelSearch() {
    }

    public static List<SeriesModel> fitAll(List<MeasurementSeries> series, PmnfModeler.Options o) {
        return fitAll(series, o, Search.STRAGGLER);
    }
}
