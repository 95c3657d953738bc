package dev.straggler.patterns.scalasca;

import dev.straggler.patterns.AnalysisResult;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorded sample mpi-intercomm (samples/recorded: a broadcast and a reduction across an inter-communicator,
 * then a ring exchange on MPI_COMM_WORLD). Scalasca 2.6 stops at it; Straggler analyses the rest and says, in words
 * that match what happened, that the operations on the inter-communicator are not analysed: valid content outside its
 * model, not a damaged part skipped by a lenient read that nobody asked for.
 */
class InterCommunicatorSampleTest {
    @Test
    void theReportSaysTheInterCommunicatorIsOutsideTheModelNotDamaged() throws IOException {
        AnalysisResult r = ScalascaHybridTracesTest.analyseRecorded("mpi-intercomm");
        String warnings = String.join("\n", r.warnings());
        assertTrue(warnings.contains("outside Straggler's model"), warnings);
        assertFalse(warnings.contains("--lenient") || warnings.contains("damaged"), warnings);
        // the ring exchange on MPI_COMM_WORLD is analysed: 2 iterations x 4 ranks
        assertEquals(8, r.summary().messages(), "messages on MPI_COMM_WORLD");
        assertTrue(r.cube().total("mpi_latesender") > 0, "its waiting is found");
    }
}
