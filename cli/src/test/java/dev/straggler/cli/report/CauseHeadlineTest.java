package dev.straggler.cli.report;

import dev.straggler.patterns.cube.SeverityCube;
import dev.straggler.patterns.cube.SystemLocation;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CauseHeadlineTest {
    private final SeverityCube eightRanks = cube(8);

    private static SeverityCube cube(int ranks) {
        SeverityCube full = ReportCubes.rootCauses();
        List<SystemLocation> locs = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            locs.add(new SystemLocation(r, r, 0, ""));
        }
        return new SeverityCube(full.metrics(), full.regions(), full.callPaths(), locs, Map.of());
    }

    @Test
    void aCauseOnOneRankNamesThatRank() {
        assertEquals("rank 5", CauseHeadline.locations(new double[]{0, 0, 0, 0, 0, 2, 0, 0}, eightRanks));
    }

    @Test
    void ranksAreNamedLargestFirstUntilTheyHoldEightyPercent() {
        // rank 7 holds 60 %, rank 1 a further 30 %: together 90 %
        assertEquals("ranks 7 and 1", CauseHeadline.locations(new double[]{0.1, 0.3, 0, 0, 0, 0, 0, 0.6}, eightRanks));
    }

    @Test
    void aCauseSpreadOverAllRanksIsSummarisedWithItsLargest() {
        assertEquals("all 8 ranks, most on 4, 0 and 1",
                CauseHeadline.locations(new double[]{2, 2, 1, 1, 3, 1, 1, 1}, eightRanks));
    }

    @Test
    void aCauseSpreadOverSomeRanksSaysHowMany() {
        assertEquals("5 ranks, most on 0, 1 and 2",
                CauseHeadline.locations(new double[]{1, 1, 1, 1, 1, 0, 0, 0}, eightRanks));
    }

    @Test
    void sharesAreShownWithOneDecimalAndATinyShareIsNotShownAsZero() {
        assertEquals("37.5 %", CauseHeadline.percent(37.5));
        assertEquals("100.0 %", CauseHeadline.percent(100));
        assertEquals("<0.1 %", CauseHeadline.percent(0.04));
        assertEquals("0.0 %", CauseHeadline.percent(0));
    }
}
