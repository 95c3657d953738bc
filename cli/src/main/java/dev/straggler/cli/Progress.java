package dev.straggler.cli;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * A progress bar on stderr when a person is watching (a terminal, not CI), and nothing otherwise, so that
 * piped output and logs stay clean. Safe to step from several threads.
 */
final class Progress implements AutoCloseable, LongConsumer {
    private final ProgressBar bar;
    private final LongAdder done = new LongAdder();

    private Progress(ProgressBar bar) {
        this.bar = bar;
    }

    static Progress start(String task, long total, String unit, boolean quiet) {
        boolean interactive = !quiet && System.getenv("CI") == null && stderrIsTerminal();
        if (!interactive) {
            return new Progress(null);
        }
        ProgressBar b = new ProgressBarBuilder().setTaskName(task).setInitialMax(Math.max(total, 1))
                .setStyle(ProgressBarStyle.COLORFUL_UNICODE_BLOCK).setUnit(" " + unit, 1).showSpeed()
                .setConsumer(new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err))
                .setUpdateIntervalMillis(200).continuousUpdate().build();
        return new Progress(b);
    }

    /**
     * The bar goes to stderr, so stderr must be a terminal; stdout may be redirected to a file. Java has no isatty:
     * on Linux the descriptor's link tells, elsewhere a console means both streams are terminals.
     */
    private static boolean stderrIsTerminal() {
        try {
            java.nio.file.Path fd2 = java.nio.file.Path.of("/proc/self/fd/2");
            if (java.nio.file.Files.exists(fd2)) {
                String target = java.nio.file.Files.readSymbolicLink(fd2).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (java.io.IOException | RuntimeException ignored) {
            // fall back below
        }
        return System.console() != null;
    }

    @Override
    public void accept(long n) {
        done.add(n);
        if (bar != null) {
            bar.stepBy(n);
        }
    }

    /** Moves the bar to an absolute position (for listeners that report cumulative counts). */
    void stepTo(long position) {
        if (bar != null) {
            bar.stepTo(position);
        }
    }

    long done() {
        return done.sum();
    }

    void setMax(long max) {
        if (bar != null) {
            bar.maxHint(max);
        }
    }

    @Override
    public void close() {
        if (bar != null) {
            // the total is often an estimate (OTF2 declares records the model skips): end at 100 %
            bar.maxHint(Math.max(1, bar.getCurrent()));
            bar.close();
        }
    }

    /**
     * One bar per phase of an analysis, each in its own unit: the read in events, then the wait states and the root
     * causes in locations. A single bar of events stood at 100 % once the read was done, while the wait states and
     * the root-cause stage (most of a run with root causes) still ran. Fed by the analysis's progress listener from
     * any thread; a bar never goes back.
     */
    static final class Phases implements dev.straggler.replay.ProgressListener, AutoCloseable {
        private final boolean quiet;
        private Progress bar;
        private String phase;
        private long shown;

        /** Starts with the read's bar: {@code events} to read. */
        Phases(String task, long events, boolean quiet) {
            this.quiet = quiet;
            this.bar = start(task, events, "events", quiet);
            this.phase = "read";
        }

        @Override
        public synchronized void update(String name, long done, long total) {
            if (!name.equals(phase)) {
                String label = switch (name) {
                    case "patterns" -> "wait states";
                    case "root causes" -> "root causes";
                    default -> null;
                };
                if (label == null) {
                    return;
                }
                bar.close();
                bar = start(label, Math.max(total, 1), "locations", quiet);
                phase = name;
                shown = 0;
            }
            if (done > shown) {
                shown = done;
                bar.stepTo(done);
            }
        }

        @Override
        public synchronized void close() {
            bar.close();
        }
    }
}
