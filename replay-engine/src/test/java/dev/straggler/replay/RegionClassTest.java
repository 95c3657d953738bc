package dev.straggler.replay;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.Region;
import dev.straggler.trace.RegionRole;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegionClassTest {

    private static int mpi(String name) {
        return RegionClass.of(new Region(0, name, name, "MPI", 0, 0, Paradigm.MPI, RegionRole.FUNCTION));
    }

    @Test
    void onlySendAndSsendAreBlockingSends() {
        assertTrue(RegionClass.isBlockingSend(mpi("MPI_Send")));
        assertTrue(RegionClass.isBlockingSend(mpi("MPI_Ssend")));
        for (String n : new String[]{"MPI_Bsend", "MPI_Rsend", "MPI_Isend", "MPI_Issend", "MPI_Send_init", "MPI_Sendrecv"}) {
            assertFalse(RegionClass.isBlockingSend(mpi(n)), n);
        }
    }

    @Test
    void waitAndTestFamiliesAreClassified() {
        assertTrue(RegionClass.isWaitSingle(mpi("MPI_Wait")));
        assertTrue(RegionClass.isWaitSingle(mpi("MPI_Waitany")));
        assertTrue(RegionClass.isWaitMulti(mpi("MPI_Waitall")));
        assertTrue(RegionClass.isWaitMulti(mpi("MPI_Waitsome")));
        assertTrue(RegionClass.isTest(mpi("MPI_Test")));
        assertTrue(RegionClass.isTest(mpi("MPI_Testsome")));
        assertFalse(RegionClass.isWaitMulti(mpi("MPI_Wait")));
    }

    @Test
    void aRegionIsMpiOnlyByItsSourceFile() {
        Region user = new Region(0, "MPI_Send", "MPI_Send", "app.c", 1, 2, Paradigm.USER, RegionRole.FUNCTION);
        assertFalse(RegionClass.isMpi(RegionClass.of(user)));
        assertTrue(RegionClass.isInit(mpi("MPI_Init_thread")));
        assertTrue(RegionClass.isFinalize(mpi("MPI_Finalize")));
    }
}
