package dev.straggler.trace.otf2;

import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.TraceDefinitions;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The facts pipit's own test suite asserts for its ping-pong OTF2 trace (restated in ../shared/traces/README.md),
 * reproduced from what the reader delivers.
 */
class PipitPingPongTest {

    private static Otf2Archive open() throws IOException {
        return Otf2Archive.open(SharedTraces.dir("pipit-ping-pong"));
    }

    @Test
    void hasOneHundredTwentyEventsSixtyPerRank() throws IOException {
        try (Otf2Archive a = open()) {
            Otf2Statistics s = a.scanStatistics();
            assertEquals(120, s.events());
            assertArrayEquals(new long[] {60, 60}, s.eventsPerLocation());
            TraceDefinitions d = a.definitions();
            assertEquals(2, d.rankCount());
            assertEquals(2, d.processes().size());
            for (Location l : d.locations()) {
                assertEquals(0, l.thread(), "one thread per process");
                assertEquals(60, l.events());
            }
            assertEquals(2095197216L, d.clock().ticksPerSecond());
        }
    }

    @Test
    void callsMpiSendAndMpiRecvSixteenTimesEach() throws IOException {
        try (Otf2Archive a = open()) {
            TraceDefinitions d = a.definitions();
            int send = d.regionId("MPI_Send");
            int recv = d.regionId("MPI_Recv");
            int sends = 0;
            int recvs = 0;
            for (int l = 0; l < 2; l++) {
                EventBatch b = a.readLocation(l);
                for (int i = 0; i < b.size; i++) {
                    if (b.kind[i] == EventKind.ENTER_CODE) {
                        sends += b.ref[i] == send ? 1 : 0;
                        recvs += b.ref[i] == recv ? 1 : 0;
                    }
                }
            }
            assertEquals(16, sends);
            assertEquals(16, recvs);
        }
    }

    @Test
    void communicationMatrixHasEightMessagesOf4177920BytesEachWay() throws IOException {
        long[][] messages = new long[2][2];
        long[][] bytes = new long[2][2];
        try (Otf2Archive a = open()) {
            TraceDefinitions d = a.definitions();
            for (Location l : d.locations()) {
                EventBatch b = a.readLocation(l.index());
                for (int i = 0; i < b.size; i++) {
                    if (b.kind[i] == EventKind.MPI_SEND_CODE || b.kind[i] == EventKind.MPI_ISEND_CODE) {
                        Communicator c = d.communicator(b.comm[i]);
                        int to = c.globalRank(b.ref[i]);
                        messages[l.rank()][to]++;
                        bytes[l.rank()][to] += b.bytes[i];
                    }
                }
            }
        }
        assertArrayEquals(new long[] {0, 8}, messages[0]);
        try (Otf2Archive a = open()) {
            // the project's comm-matrix computation, run on the OTF2 archive directly
            dev.straggler.trace.CommunicationMatrix m = dev.straggler.trace.CommunicationMatrix.compute(a);
            assertArrayEquals(messages, m.messages());
            assertArrayEquals(bytes, m.bytes());
        }
        assertArrayEquals(new long[] {8, 0}, messages[1]);
        assertArrayEquals(new long[] {0, 4_177_920}, bytes[0]);
        assertArrayEquals(new long[] {4_177_920, 0}, bytes[1]);
    }
}
