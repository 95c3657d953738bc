package dev.straggler.patterns.reduce;

import dev.straggler.patterns.cubex.CubexReader;
import dev.straggler.trace.TraceSource;
import dev.straggler.trace.Traces;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Region types, visits and buffer estimates computed from each real Score-P trace against {@code scorep-score -r}
 * of Score-P's own profile of the same run (the oracle: {@code scorep_score.txt}).
 */
class ScorepScoreAgreementTest {

    @Test
    void everyRegionHasScorepScoresTypeVisitsAndMaxBuf() throws Exception {
        int checked = 0;
        for (Path dir : RealTraces.withScore()) {
            ScorepScoreFile oracle = ScorepScoreFile.read(dir.resolve("scorep_score.txt"));
            CallTreeProfile p;
            try (TraceSource src = Traces.open(dir.resolve("traces.otf2"))) {
                p = TraceProfiler.profile(src);
            }
            assertEquals(0, p.anomalyCount(), dir + ": " + p.anomalies());
            RegionStatistics est = RegionStatistics.of(p, SizeModel.SCOREP, RealTraces.programArguments(dir));
            RegionStatistics rec = RegionStatistics.of(p, SizeModel.RECORDS);
            Map<String, List<Integer>> byName = new HashMap<>();
            for (int r : est.presentRegions()) {
                byName.computeIfAbsent(p.regions().get(r).name(), k -> new ArrayList<>()).add(r);
            }
            for (ScorepScoreFile.Line line : oracle.regions()) {
                List<Integer> ids = byName.getOrDefault(line.name(), List.of());
                assertEquals(1, ids.size(), dir + ": region " + line.name() + " found " + ids.size() + " times");
                int r = ids.get(0);
                assertEquals(line.type(), est.type(r).name(), dir + ": type of " + line.name());
                assertEquals(line.visits(), est.visits(r), dir + ": visits of " + line.name());
                assertEquals(line.maxBuf(), est.maxBytes(r), dir + ": max_buf of " + line.name());
                // the profile and the trace come from the same run and the same timestamps; the listing rounds to 10 ms
                assertEquals(line.time(), est.time(r), 0.0051, dir + ": time of " + line.name());
            }
            assertEquals(oracle.regions().size(), est.presentRegions().size(), dir + ": number of visited regions");
            RegionStatistics.Totals all = est.totals(null);
            assertEquals(oracle.group("ALL").maxBuf(), all.maxBytes(), dir + ": max_buf of ALL");
            assertEquals(oracle.group("ALL").visits(), all.visits(), dir + ": visits of ALL");
            for (ScorepScoreFile.Line g : oracle.groups()) {
                if (!g.type().equals("ALL")) {
                    ScoreType t = ScoreType.valueOf(g.type());
                    long v = est.presentRegions().stream().filter(r -> est.type(r) == t).mapToLong(est::visits).sum();
                    assertEquals(g.visits(), v, dir + ": visits of group " + t);
                }
            }
            // the record sizes against Score-P's event files on disk, which also hold the records the model skips
            long onDisk = DeepCallTreeReductionTest.eventFileBytes(dir.resolve("traces"));
            long counted = rec.totals(null).bytes();
            assertEquals(onDisk, counted, 0.01 * onDisk, dir + ": OTF2 bytes counted vs event files");
            checked++;
        }
        assertTrue(checked > 0, "no real trace with scorep_score.txt");
    }

    @Test
    void scorePesOwnProfileGivesTheListingExactly() throws Exception {
        int checked = 0;
        for (Path dir : RealTraces.withScore()) {
            Path cubex = dir.resolve("profile.cubex");
            if (!java.nio.file.Files.isRegularFile(cubex)) {
                continue;
            }
            ScorepScoreFile oracle = ScorepScoreFile.read(dir.resolve("scorep_score.txt"));
            CallTreeProfile p = CubeProfiles.fromCube(CubexReader.read(cubex), cubex.toString());
            RegionStatistics est = RegionStatistics.of(p, SizeModel.SCOREP, RealTraces.programArguments(dir));
            for (ScorepScoreFile.Line line : oracle.regions()) {
                int r = onlyRegion(est, line.name());
                assertEquals(line.type(), est.type(r).name(), cubex + ": type of " + line.name());
                assertEquals(line.visits(), est.visits(r), cubex + ": visits of " + line.name());
                assertEquals(line.maxBuf(), est.maxBytes(r), cubex + ": max_buf of " + line.name());
                assertEquals(line.time(), est.time(r), 0.0051, cubex + ": time of " + line.name());
            }
            assertEquals(oracle.group("ALL").maxBuf(), est.totals(null).maxBytes(), cubex + ": max_buf of ALL");
            checked++;
        }
        assertTrue(checked > 0, "no profile.cubex found");
    }

    private static int onlyRegion(RegionStatistics s, String name) {
        List<Integer> ids = s.presentRegions().stream().filter(r -> s.regions().get(r).name().equals(name)).toList();
        assertEquals(1, ids.size(), name + " found " + ids.size() + " times");
        return ids.get(0);
    }
}
