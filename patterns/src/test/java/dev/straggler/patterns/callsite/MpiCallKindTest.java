package dev.straggler.patterns.callsite;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MpiCallKindTest {
    @Test
    void userFunctionNamedLikeMpiIsNotAnMpiCall() {
        assertFalse(MpiCallKind.isMpi(new Region(0, "mpi_commpattern_sendrecv", null, "mpi_util.c", 1, 9,
                Paradigm.COMPILER, RegionRole.FUNCTION)));
    }

    @Test
    void mpiParadigmOrScorePsSourceFileMakesAnMpiCall() {
        assertTrue(MpiCallKind.isMpi(new Region(0, "MPI_Send", null, "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT)));
        assertTrue(MpiCallKind.isMpi(new Region(0, "MPI_Send", null, "MPI", 0, 0, Paradigm.UNKNOWN, RegionRole.UNKNOWN)));
    }

    @Test
    void nameDecidesOnlyWithoutParadigm() {
        assertTrue(MpiCallKind.isMpi(new Region(0, "MPI_Recv", null, "", 0, 0, Paradigm.UNKNOWN, RegionRole.UNKNOWN)));
    }
}
