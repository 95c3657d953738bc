/*
 * pthread-mutex.c -- MPI + POSIX threads ground-truth program for Straggler.
 * 2 MPI ranks; each rank = main thread + 3 worker pthreads (NWORK=3).
 * MPI_Init_thread(MPI_THREAD_FUNNELED); only the main thread calls MPI.
 * Instrument with: scorep --mpp=mpi --thread=pthread mpicc ...
 *
 * Per rank:
 *  main: pthread_create x3, then the MPI exchange, then pthread_join x3.
 *    MPI: rank 1 sleeps 15 ms, MPI_Send(tag 7) -> rank 0 MPI_Recv
 *         -> Late Sender ~15 ms on rank 0's main thread
 *         (both ranks first do an MPI_Barrier, so the ranks start aligned).
 *  Phase 1, mutex contention (mutex `m1`): each worker w (0..2) sleeps w*1 ms,
 *    then NLOCK=5 times: pthread_mutex_lock(m1); hold HOLD=4 ms (nanosleep);
 *    pthread_mutex_unlock(m1); sleep 1 ms outside the lock.
 *    The three workers want the lock ~ at the same time; per round the mutex is
 *    busy ~12 ms while each worker is away only 1 ms, so each acquisition
 *    waits ~ (2 holds - 1 ms) = ~7 ms in steady state (first acquisitions less).
 *    Expected pthread mutex contention per rank: roughly 5*3 acquisitions,
 *    ~ 80-100 ms in total (the exact number depends on the OS schedule; the
 *    trace's ACQUIRE/RELEASE order is the ground truth).
 *  Phase 2, condition variable (mutex `m2`, cond `cv`):
 *    workers 1 and 2: lock(m2); while(!ready) pthread_cond_wait(cv, m2); unlock(m2)
 *    worker 0: after its phase-1 loop sleeps SIGNAL_DELAY=30 ms, then
 *              lock(m2); ready=1; pthread_cond_broadcast(cv); sleep 2 ms; unlock(m2)
 *    -> workers 1,2 wait in pthread_cond_wait from their arrival until worker 0
 *       unlocks m2 (~30 ms + 2 ms after worker 0 finished phase 1);
 *       the second of them to reacquire m2 after the wakeup also waits for the first.
 *  Then the workers end; main joins them (pthread_join waits for the last worker).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NWORK        3
#define NLOCK        5
#define HOLD         4    /* ms */
#define SIGNAL_DELAY 30   /* ms */

static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  cv = PTHREAD_COND_INITIALIZER;
static int ready = 0;
static long counter = 0;

static void sleep_ms(double ms)
{
    struct timespec ts;
    ts.tv_sec  = (time_t)(ms / 1000.0);
    ts.tv_nsec = (long)((ms - ts.tv_sec * 1000.0) * 1e6);
    while (nanosleep(&ts, &ts) != 0) { }
}

static void *worker(void *arg)
{
    int w = (int)(long)arg;
    sleep_ms(w);
    for (int i = 0; i < NLOCK; ++i) {
        pthread_mutex_lock(&m1);
        counter++;
        sleep_ms(HOLD);
        pthread_mutex_unlock(&m1);
        sleep_ms(1);
    }
    if (w == 0) {
        sleep_ms(SIGNAL_DELAY);
        pthread_mutex_lock(&m2);
        ready = 1;
        pthread_cond_broadcast(&cv);
        sleep_ms(2);
        pthread_mutex_unlock(&m2);
    } else {
        pthread_mutex_lock(&m2);
        while (!ready)
            pthread_cond_wait(&cv, &m2);
        pthread_mutex_unlock(&m2);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    pthread_t th[NWORK];
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "needs exactly 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (long w = 0; w < NWORK; ++w)
        pthread_create(&th[w], NULL, worker, (void *)w);

    double v = rank;
    if (rank == 1) {
        sleep_ms(15);
        MPI_Send(&v, 1, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&v, 1, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }

    for (int w = 0; w < NWORK; ++w)
        pthread_join(th[w], NULL);
    printf("rank %d counter %ld\n", rank, counter);
    MPI_Finalize();
    return 0;
}
