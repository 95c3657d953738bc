package dev.straggler.patterns.scaling;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RankCorrelationTableTest {
    /**
     * The table's "p=N" columns are process counts, so the p-value of the correlation is headed "p-value": one label
     * is never two things. Its entries are probabilities, between 0 and 1.
     */
    @Test
    void theCorrelationsPValueIsHeadedPValueBesideTheProcessCounts() {
        RankCorrelation.Result r = RankCorrelation.analyse(RankCorrelationTest.family());
        List<String> lines = ScalingText.render(r, "callsite").lines().toList();
        String header = lines.stream().filter(l -> l.trim().startsWith("r_s")).findFirst().orElseThrow();
        List<String> heads = List.of(header.trim().split("\\s+"));
        assertEquals(List.of("r_s", "p-value", "max", "share"), heads.subList(0, 4), header);
        assertTrue(heads.stream().skip(4).filter(h -> h.startsWith("p")).allMatch(h -> h.matches("p=\\d+")), header);
        int at = header.indexOf("p-value") + "p-value".length();
        String row = lines.get(lines.indexOf(header) + 1);
        double p = Double.parseDouble(row.substring(at - 8, at).trim());
        assertTrue(p >= 0 && p <= 1, row);
    }
}
