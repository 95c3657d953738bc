/*
 * A 2-D halo exchange (Straggler's recorded sample "stencil"): 8 ranks on a 4 x 2 grid, 8 iterations. Each
 * iteration computes (rank 5 a third longer: a slow rank whose delay travels through the halo exchanges), posts
 * MPI_Irecv from its up to four neighbours, sends with MPI_Isend, completes all with one MPI_Waitall, and reduces a
 * residual with MPI_Allreduce every other iteration. Waiting propagates from rank to rank: long-term delay costs,
 * indirect and propagating waits.
 */
#include <mpi.h>
#include <stdio.h>

#define PX 4
#define PY 2
#define HALO 64

static volatile double sink;

__attribute__((noinline)) static void compute(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++) {
        x += (double) i * 1e-9;
    }
    sink = x;
}

__attribute__((noinline)) static void exchange(int rank, double out[4][HALO], double in[4][HALO])
{
    int x = rank % PX, y = rank / PX;
    int nb[4] = { x > 0 ? rank - 1 : MPI_PROC_NULL, x < PX - 1 ? rank + 1 : MPI_PROC_NULL,
                  y > 0 ? rank - PX : MPI_PROC_NULL, y < PY - 1 ? rank + PX : MPI_PROC_NULL };
    MPI_Request r[8];
    int n = 0;
    for (int d = 0; d < 4; d++) {
        if (nb[d] != MPI_PROC_NULL) {
            MPI_Irecv(in[d], HALO, MPI_DOUBLE, nb[d], d ^ 1, MPI_COMM_WORLD, &r[n++]);
        }
    }
    for (int d = 0; d < 4; d++) {
        if (nb[d] != MPI_PROC_NULL) {
            MPI_Isend(out[d], HALO, MPI_DOUBLE, nb[d], d, MPI_COMM_WORLD, &r[n++]);
        }
    }
    MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
}

int main(int argc, char** argv)
{
    int rank, size;
    static double out[4][HALO], in[4][HALO];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != PX * PY) {
        if (rank == 0) {
            fprintf(stderr, "stencil needs %d ranks\n", PX * PY);
        }
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int it = 0; it < 8; it++) {
        compute(rank == 5 ? 160000L : 120000L);
        exchange(rank, out, in);
        if (it % 2 == 1) {
            double res = rank, sum = 0;
            MPI_Allreduce(&res, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    if (rank == 0) {
        printf("stencil: %d ranks, 8 iterations\n", size);
    }
    return 0;
}
