/*
 * More of the POSIX threads API (Straggler's recorded sample "pthread-more"): 2 MPI ranks, each main thread plus 3
 * POSIX threads, MPI_THREAD_FUNNELED, 2 rounds.
 *   trylock     every worker spins on pthread_mutex_trylock until it gets a mutex another worker holds for a while
 *   timedwait   workers wait with pthread_cond_timedwait for a flag the last worker sets late and signals
 *   signal      the main thread wakes one worker at a time with pthread_cond_signal
 *   detach      one extra thread per round is created detached and ends on its own
 * Between the rounds the main threads exchange with MPI (a Late Sender on rank 0).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define NWORK 3

static volatile double sink;

__attribute__((noinline)) static void work(long n)
{
    double x = 0;
    for (long i = 0; i < n; i++) {
        x += (double) i * 1e-9;
    }
    sink = x;
}

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t flag_cv = PTHREAD_COND_INITIALIZER;
static pthread_cond_t go_cv = PTHREAD_COND_INITIALIZER;
static int flag, go;

static void* worker(void* arg)
{
    long w = (long) arg;
    /* trylock: spin until the mutex is free */
    work(20000L * (w + 1));
    while (pthread_mutex_trylock(&held) != 0) {
        work(2000L);
    }
    work(60000L);
    pthread_mutex_unlock(&held);
    /* timedwait: the last worker sets the flag late */
    if (w == NWORK - 1) {
        work(200000L);
        pthread_mutex_lock(&m);
        flag = 1;
        pthread_cond_broadcast(&flag_cv);
        pthread_mutex_unlock(&m);
    } else {
        pthread_mutex_lock(&m);
        while (!flag) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += 5;
            pthread_cond_timedwait(&flag_cv, &m, &until);
        }
        pthread_mutex_unlock(&m);
    }
    /* signal: wait until the main thread lets this worker go */
    pthread_mutex_lock(&m);
    while (go <= w) {
        pthread_cond_wait(&go_cv, &m);
    }
    pthread_mutex_unlock(&m);
    work(30000L);
    return NULL;
}

static void* loner(void* arg)
{
    (void) arg;
    work(50000L);
    return NULL;
}

int main(int argc, char** argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int round = 0; round < 2; round++) {
        pthread_t t[NWORK], d;
        flag = 0;
        go = 0;
        for (long w = 0; w < NWORK; w++) {
            pthread_create(&t[w], NULL, worker, (void*) w);
        }
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_create(&d, &attr, loner, NULL);
        pthread_attr_destroy(&attr);
        for (int w = 0; w < NWORK; w++) {
            work(80000L);
            pthread_mutex_lock(&m);
            go = w + 1;
            pthread_cond_signal(&go_cv);
            pthread_mutex_unlock(&m);
        }
        for (int w = 0; w < NWORK; w++) {
            pthread_join(t[w], NULL);
        }
        double v = rank;
        if (rank == 1) {
            work(150000L);
            MPI_Send(&v, 1, MPI_DOUBLE, 0, round, MPI_COMM_WORLD);
        } else if (rank == 0) {
            MPI_Recv(&v, 1, MPI_DOUBLE, 1, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    work(100000L);
    MPI_Finalize();
    if (rank == 0) {
        printf("pthread-more: done\n");
    }
    return 0;
}
