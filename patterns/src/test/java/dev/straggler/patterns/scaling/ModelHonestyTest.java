package dev.straggler.patterns.scaling;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The model output never claims a fit quality it cannot have and never prints a negative time as a prediction. */
class ModelHonestyTest {
    @Test
    void threeParametersThroughThreeRunsHaveNoRSquared() {
        MedyaModel.Fit f = MedyaModel.fit(new double[] {2, 4, 8}, new double[] {5, 3, 2.5});
        assertEquals(0, f.dof());
        assertTrue(Double.isNaN(f.r2()));
        assertTrue(Double.isNaN(f.mse()));
        // the curve passes through every run
        assertEquals(3, f.predict(4), 1e-12);
    }

    @Test
    void fourRunsLeaveOneDegreeOfFreedom() {
        MedyaModel.Fit f = MedyaModel.fit(new double[] {2, 4, 8, 16}, new double[] {5, 3, 2.5, 2.4});
        assertEquals(1, f.dof());
        assertFalse(Double.isNaN(f.r2()));
    }

    @Test
    void negativePredictionIsCalledInvalid() {
        // times that fall fast: c0 + c1/p + c2/sqrt(p) through them goes below zero at large p
        List<ModelPoint> points = List.of(new ModelPoint("a", 2, 10, 9, 1), new ModelPoint("b", 4, 5, 4.5, 0.5),
                new ModelPoint("c", 8, 1, 0.9, 0.1));
        MedyaModel.Report r = MedyaModel.analyse(points, new int[] {1000});
        assertTrue(r.predictions().get(0).total() < 0, "the fixture must predict below zero");
        String text = ScalingText.render(r);
        assertTrue(text.contains("invalid (<0)"), text);
        assertTrue(text.contains("the fitted model predicts a negative time, so it is not valid there: time at p = 1000"),
                text);
        assertTrue(text.contains("no degrees of freedom are left"), text);
    }
}
