package dev.straggler.testdata;

/**
 * Small traces written by hand in the text format, for behaviour no simulator scenario can produce because no run
 * can have recorded it.
 */
public final class HandTraces {
    private HandTraces() {
    }

    /**
     * Rank 0 sends after a barrier that rank 1 enters only after receiving that message: the wait states exist (rank 1
     * waits 45 ms for the send), but no backward replay can order the two ranks, so the root causes cannot be found.
     */
    public static final String IMPOSSIBLE_ORDER = """
            straggler-text 1
            clock resolution=1000
            region 0 main
            region 1 MPI_Send paradigm=MPI role=POINT2POINT file=MPI
            region 2 MPI_Recv paradigm=MPI role=POINT2POINT file=MPI
            region 3 MPI_Barrier paradigm=MPI role=BARRIER file=MPI
            location 0 rank=0
            location 1 rank=1
            comm 0 MPI_COMM_WORLD members=0,1
            0 0 ENTER main
            0 10 ENTER MPI_Barrier
            0 11 MPI_COLLECTIVE_BEGIN
            0 19 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            0 20 LEAVE MPI_Barrier
            0 50 ENTER MPI_Send
            0 51 MPI_SEND to=1 comm=0 tag=0 bytes=8
            0 52 LEAVE MPI_Send
            0 100 LEAVE main
            1 0 ENTER main
            1 5 ENTER MPI_Recv
            1 60 MPI_RECV from=0 comm=0 tag=0 bytes=8
            1 61 LEAVE MPI_Recv
            1 70 ENTER MPI_Barrier
            1 71 MPI_COLLECTIVE_BEGIN
            1 79 MPI_COLLECTIVE_END op=BARRIER comm=0 sent=0 received=0
            1 80 LEAVE MPI_Barrier
            1 100 LEAVE main
            """;
}
