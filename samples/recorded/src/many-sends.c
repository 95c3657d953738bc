/*
 * Many eager sends between two synchronisation points (Straggler's recorded sample "many-sends").
 *
 * 2 ranks, ROUNDS rounds. Rank 0 runs `work` (short) then MPI_Send of 8 bytes to rank 1, SENDS times, then
 * MPI_Recv from rank 1. Rank 1 runs `work` (about twice as long) then MPI_Recv of that message, SENDS times, then
 * MPI_Send to rank 0. Rank 1 is slower, so every message has arrived before its receive is posted (no Late
 * Sender at rank 1) and every eager MPI_Send has returned before the receive is posted (no Late Receiver at
 * rank 0): the SENDS sends of a round are marks that close no interval. The round's closing message waits
 * (Late Sender at rank 0), and its delay compares rank 1's time map with rank 0's since their previous
 * synchronisation: an interval with SENDS pairs of (work, MPI_Send) bookings on rank 0.
 */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 3
#define SENDS 150

static volatile double sink;

__attribute__((noinline)) static void work(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++) {
        x += (double) i * 1e-9;
    }
    sink = x;
}

int main(int argc, char** argv)
{
    int rank;
    char buf[8] = { 0 };
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int r = 0; r < ROUNDS; r++) {
        if (rank == 0) {
            for (int i = 0; i < SENDS; i++) {
                work(20000);
                MPI_Send(buf, 8, MPI_BYTE, 1, i, MPI_COMM_WORLD);
            }
            MPI_Recv(buf, 8, MPI_BYTE, 1, 1000, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            for (int i = 0; i < SENDS; i++) {
                work(40000);
                MPI_Recv(buf, 8, MPI_BYTE, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            MPI_Send(buf, 8, MPI_BYTE, 0, 1000, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    if (rank == 0) {
        printf("many-sends: %d rounds of %d sends\n", ROUNDS, SENDS);
    }
    return 0;
}
