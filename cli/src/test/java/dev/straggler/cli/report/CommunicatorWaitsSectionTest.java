package dev.straggler.cli.report;

import dev.straggler.patterns.CommunicatorWaits;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommunicatorWaitsSectionTest {
    private static CommunicatorWaits comm(int id, String name, int[] ranks, double nxn) {
        return new CommunicatorWaits(id, name, ranks, Map.of("mpi_wait_nxn", nxn));
    }

    @Test
    void sizesAreListedWithTheirShareAndTheShareUpToThem() {
        // 0.3 s on two communicators of 2, 0.1 s on MPI_COMM_WORLD of 4: 75 % / 25 %, cumulative 75 % then 100 %
        List<CommunicatorWaits> comms = List.of(comm(0, "MPI_COMM_WORLD", new int[] {0, 1, 2, 3}, 0.1),
                comm(1, "row 0", new int[] {0, 1}, 0.2), comm(2, "row 1", new int[] {2, 3}, 0.1));
        String html = HtmlReport.of(ReportCubes.small()).communicators(comms).render();
        assertTrue(html.contains("Waiting by communicator"), html);
        String body = html.substring(html.indexOf("By communicator size"));
        assertTrue(body.matches("(?s).*<td class=\"num\">2</td><td class=\"num\">2</td><td class=\"num\">0.300000 s"
                + "</td><td class=\"num\">75.0 %</td><td class=\"num\">75.0 %</td>.*"), body);
        assertTrue(body.matches("(?s).*<td class=\"num\">4</td><td class=\"num\">1</td><td class=\"num\">0.100000 s"
                + "</td><td class=\"num\">25.0 %</td><td class=\"num\">100.0 %</td>.*"), body);
    }

    @Test
    void noSectionWhenOnlyOneCommunicatorWaits() {
        List<CommunicatorWaits> comms = List.of(comm(0, "MPI_COMM_WORLD", new int[] {0, 1}, 0.1),
                new CommunicatorWaits(1, "self", new int[] {0}, Map.of()));
        assertFalse(HtmlReport.of(ReportCubes.small()).communicators(comms).render()
                .contains("Waiting by communicator"));
    }

    @Test
    void communicatorsBeyondTheListedOnesAreCounted() {
        // twelve pair communicators waiting 1..12 s (78 s): the ten largest are listed, the two smallest (1 + 2 s,
        // 3.8 % of all waiting) are counted in a row of their own
        List<CommunicatorWaits> comms = new ArrayList<>();
        for (int k = 1; k <= 12; k++) {
            comms.add(comm(k, "pair " + k, new int[] {0, 1}, k));
        }
        String html = HtmlReport.of(ReportCubes.small()).communicators(comms).render();
        String body = html.substring(html.indexOf("Communicators with the most waiting"));
        body = body.substring(0, body.indexOf("</table>"));
        assertFalse(body.contains(">pair 1<"), body);
        assertTrue(body.contains("<td colspan=\"3\">2 more communicators</td><td class=\"num\">3.000000 s</td>"
                + "<td class=\"num\">3.8 %</td>"), body);
    }
}
