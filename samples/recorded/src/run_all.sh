#!/bin/bash
# Builds, records and analyses the samples of this directory with Score-P 8.4 and Scalasca 2.6 (both on PATH, MPI
# being Open MPI). R is the directory to write into, with this script's directory as R/src.
set -u
R=${R:-$(cd "$(dirname "$0")/.." && pwd)}
mkdir -p "$R/bin" && cd "$R/bin"
scorep --mpp=mpi --thread=omp:opari2 mpicc -fopenmp -O1 -o mpi-in-single ../src/mpi-in-single.c
scorep --mpp=mpi --thread=pthread    mpicc -O1 -pthread -o pthread-mutex ../src/pthread-mutex.c
scorep --mpp=mpi --thread=pthread    mpicc -O1 -pthread -o pthread-more ../src/pthread-more.c
scorep --mpp=mpi --thread=none       mpicc -O1 -o many-sends ../src/many-sends.c
scorep --mpp=mpi --thread=none       mpicc -O1 -o many-paths ../src/many-paths.c
scorep --mpp=mpi --thread=none       mpicc -O1 -o mpi-zoo ../src/mpi-zoo.c
scorep --mpp=mpi --thread=none       mpicc -O1 -o mpi-zoo2 ../src/mpi-zoo2.c
scorep --mpp=mpi --thread=none       mpicc -O1 -o master-worker ../src/master-worker.c
scorep --mpp=mpi --thread=none       mpicc -O1 -o mpi-zoo3 ../src/mpi-zoo3.c
scorep --mpp=mpi --thread=none       mpicc -O1 -o mpi-intercomm ../src/mpi-intercomm.c
scorep --mpp=mpi --thread=omp:opari2 mpicc -fopenmp -O1 -o omp-zoo ../src/omp-zoo.c
scorep --mpp=mpi --thread=omp:opari2 mpicc -fopenmp -O1 -o omp-zoo2 ../src/omp-zoo2.c
scorep --mpp=mpi --thread=omp:opari2 mpicc -fopenmp -O1 -o omp-orphan ../src/omp-orphan.c
scorep --mpp=mpi --thread=omp:opari2 mpicc -fopenmp -O1 -o omp-nested ../src/omp-nested.c
scorep --mpp=mpi --thread=none       mpicc -O1 -o stencil ../src/stencil.c
scorep --mpp=mpi --thread=omp:opari2 mpicc -fopenmp -O1 -o omp-tasks ../src/omp-tasks.c
scorep --mpp=mpi --thread=omp:opari2 mpicc -fopenmp -O1 -o hybrid-cross ../src/hybrid-cross.c
record() { name=$1; np=2; case $name in mpi-zoo* | master-worker | mpi-intercomm) np=4 ;; stencil) np=8 ;; esac; shift; rm -rf "$R/$name"
  SCOREP_ENABLE_TRACING=true SCOREP_ENABLE_PROFILING=false SCOREP_TOTAL_MEMORY=64M SCOREP_TIMER=clock_gettime \
  SCOREP_EXPERIMENT_DIRECTORY=$R/$name OMP_NUM_THREADS=4 OMP_WAIT_POLICY=PASSIVE \
  mpirun --allow-run-as-root --oversubscribe -np $np "$@" > "/tmp/$name.stdout" 2>&1
  mv "/tmp/$name.stdout" "$R/$name/app_stdout.txt"; }
record mpi-in-single-single0 ./mpi-in-single single0
record mpi-in-single-master  ./mpi-in-single master
record pthread-mutex         ./pthread-mutex
record pthread-more          ./pthread-more
record many-sends            ./many-sends
record many-paths            ./many-paths
record mpi-zoo               ./mpi-zoo
record mpi-zoo2              ./mpi-zoo2
record master-worker         ./master-worker
record mpi-zoo3              ./mpi-zoo3
record mpi-intercomm         ./mpi-intercomm
record omp-zoo               ./omp-zoo
record omp-zoo2              ./omp-zoo2
record omp-orphan            ./omp-orphan
record omp-nested            ./omp-nested
record stencil               ./stencil
record omp-tasks             ./omp-tasks
record hybrid-cross          ./hybrid-cross
for name in mpi-in-single-single0 mpi-in-single-master pthread-mutex pthread-more many-sends many-paths mpi-zoo mpi-zoo2 mpi-zoo3 mpi-intercomm master-worker stencil omp-zoo omp-zoo2 omp-orphan omp-nested omp-tasks hybrid-cross; do
  cd "$R/$name"
  # scout.hyb sets its own thread count (the locations per process); it writes scout.cubex beside the archive.
  # many-sends, many-paths, the mpi-zoo programs, mpi-intercomm, master-worker and stencil are MPI only:
  # scout.mpi, as Scalasca picks.
  scout=scout.hyb; np=2
  case $name in
    many-sends | many-paths) scout=scout.mpi ;;
    mpi-zoo* | master-worker | mpi-intercomm) scout=scout.mpi; np=4 ;;
    stencil) scout=scout.mpi; np=8 ;;
  esac
  mpirun --allow-run-as-root --oversubscribe -np $np $scout traces.otf2 > scout.log 2>&1
  # scout.hyb crashes on omp-tasks (a segmentation fault while preprocessing) and refuses omp-nested ("Varying
  # numbers of threads"), scout.mpi stops at mpi-intercomm ("invalid ID"): only their logs are kept
  [ -f scout.cubex ] || { rm -f scorep.cfg MANIFEST.md; continue; }
  cube_dump -m all -c all -x incl -z excl -s csv2 scout.cubex > scalasca_dump.csv
  scalasca -examine -s . > /dev/null 2>&1      # trace.cubex: the remapped report (square, cube_remap2)
  cube_dump -m all -c all -x incl -z excl -s csv2 trace.cubex > trace_dump.csv
  tar -xOf scout.cubex anchor.xml > scout.anchor.xml
  tar -xOf trace.cubex anchor.xml > trace.anchor.xml
  rm -f scout.cubex trace.cubex scorep.score scorep.cfg MANIFEST.md
done
