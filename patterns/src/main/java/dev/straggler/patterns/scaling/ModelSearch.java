package dev.straggler.patterns.scaling;

import java.util.ArrayList;
import java.util.List;

/** Fits an Extra-P normal-form model to each series that has enough process counts. */
public final class ModelSearch {

    /** A series with its model, or the reason it has none ({@code model == null}). */
    public record SeriesModel(MeasurementSeries series, PmnfModel model, String reason) {
    }

    private ModelSearch() {
    }

    public static List<SeriesModel> fitAll(List<MeasurementSeries> series, PmnfModeler.Options o) {
        List<SeriesModel> out = new ArrayList<>();
        for (MeasurementSeries s : series) {
            try {
                out.add(new SeriesModel(s, PmnfModeler.fit(s.p(), s.values(), o), null));
            } catch (IllegalArgumentException e) {
                out.add(new SeriesModel(s, null, e.getMessage()));
            }
        }
        return out;
    }
}
