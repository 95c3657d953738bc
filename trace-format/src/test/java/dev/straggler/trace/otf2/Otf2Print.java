package dev.straggler.trace.otf2;

import dev.straggler.trace.CollectiveOp;
import dev.straggler.trace.Communicator;
import dev.straggler.trace.EventBatch;
import dev.straggler.trace.EventKind;
import dev.straggler.trace.LocationReader;
import dev.straggler.trace.TraceDefinitions;
import org.junit.jupiter.api.Assumptions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The independent oracle: Debian's {@code otf2-print} (the OTF2 C library's reader) run on an archive, its event
 * lines turned into canonical strings, and the same strings built from what {@link Otf2Archive} delivers.
 *
 * <p>A canonical string is {@code NAME timestamp field...}, the fields being the values otf2-print prints outside
 * quoted names, in its order: for MPI_SEND {@code receiver receiverLocation communicator tag length}, for
 * MPI_COLLECTIVE_END {@code operation communicator root rootLocation sent received} (root {@code NONE} when
 * undefined), and so on. So the comparison covers OTF2 ids, the comm-rank-to-location resolution and every value.
 */
final class Otf2Print {
    private static final String[] MODEL = {"ENTER", "LEAVE", "MPI_SEND", "MPI_ISEND", "MPI_ISEND_COMPLETE",
        "MPI_IRECV_REQUEST", "MPI_RECV", "MPI_IRECV", "MPI_REQUEST_TEST", "MPI_REQUEST_CANCELLED",
        "MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END", "MEASUREMENT_ON_OFF", "PROGRAM_BEGIN", "PROGRAM_END",
        "BUFFER_FLUSH", "THREAD_FORK", "THREAD_JOIN", "THREAD_ACQUIRE_LOCK", "THREAD_RELEASE_LOCK",
        "THREAD_BEGIN"};

    /** What otf2-print shows for one location. */
    record Printed(List<String> model, Map<String, Long> counts, long attributeLists) {
        long events() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private Otf2Print() {
    }

    static boolean isModel(String name) {
        for (String m : MODEL) {
            if (m.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** otf2-print's events of one location (option {@code -L}). */
    static Printed location(Path anchor, long locationId) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder("otf2-print", "-L", Long.toUnsignedString(locationId), anchor.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("otf2-print (Debian package otf2-tools) is not installed: " + e.getMessage());
            return null;
        }
        List<String> model = new ArrayList<>();
        Map<String, Long> counts = new TreeMap<>();
        long attrs = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            boolean events = false;
            for (String line; (line = r.readLine()) != null; ) {
                if (!events) {
                    events = line.startsWith("-----");
                    continue;
                }
                if (line.isEmpty()) {
                    continue;
                }
                if (Character.isWhitespace(line.charAt(0))) {
                    if (line.trim().startsWith("ADDITIONAL ATTRIBUTES")) {
                        attrs++;
                    }
                    continue;
                }
                String[] head = line.split("\\s+", 4);
                counts.merge(head[0], 1L, Long::sum);
                if (isModel(head[0])) {
                    StringBuilder b = new StringBuilder(head[0]).append(' ').append(head[2]);
                    if (!head[0].equals("PROGRAM_BEGIN")) {
                        List<String> v = values(head.length > 3 ? head[3] : "");
                        if (head[0].startsWith("THREAD_") && !v.isEmpty() && !Character.isDigit(v.get(0).charAt(0))) {
                            // a paradigm the archive does not define: otf2-print names it (PTHREAD) instead of
                            // printing its definition's name and code
                            v.set(0, Integer.toString(dev.straggler.trace.Paradigm.valueOf(v.get(0)).code()));
                        }
                        for (String x : v) {
                            b.append(' ').append(x);
                        }
                    }
                    model.add(b.toString());
                }
            }
        }
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("otf2-print failed on " + anchor + " location " + locationId);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return new Printed(model, counts, attrs);
    }

    /** The values of an otf2-print attribute text: quoted names and {@code Label:} words dropped. */
    static List<String> values(String text) {
        text = text.replace("Stop Time:", "").replace("Exit status:", "").replace("# Requested Threads:", "")
                .replace("Acquisition Order:", "").replace("Thread Contingent:", "").replace("Sequence Count:", "");
        List<String> out = new ArrayList<>();
        StringBuilder tok = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i <= text.length(); i++) {
            char ch = i < text.length() ? text.charAt(i) : ' ';
            if (quoted) {
                quoted = ch != '"';
                continue;
            }
            if (ch == '"') {
                quoted = true;
                continue;
            }
            if (Character.isLetterOrDigit(ch) || ch == '_' || ch == '-' || ch == '#') {
                tok.append(ch);
            } else {
                if (tok.length() > 0 && ch != ':') {
                    out.add(tok.toString());
                }
                tok.setLength(0);
            }
        }
        return out;
    }

    /** The same canonical strings for one location, from what the archive delivers. */
    static List<String> ours(Otf2Archive a, int location) throws IOException {
        TraceDefinitions d = a.definitionsAtOpen();
        ModelMapping m = a.mapping();
        int[] master = d.masterLocationByRank();
        List<String> out = new ArrayList<>();
        EventBatch b = new EventBatch();
        try (LocationReader r = a.openLocation(location)) {
            while (r.next(b)) {
                for (int i = 0; i < b.size; i++) {
                    out.add(canonical(b, i, d, m, master));
                }
            }
        }
        return out;
    }

    private static String canonical(EventBatch b, int i, TraceDefinitions d, ModelMapping m, int[] master) {
        EventKind k = b.kindAt(i);
        StringBuilder s = new StringBuilder(k.name()).append(' ').append(b.time[i]);
        switch (k) {
            case ENTER, LEAVE -> s.append(' ').append(m.regionIds[b.ref[i]]);
            case MPI_SEND, MPI_RECV, MPI_ISEND, MPI_IRECV -> {
                s.append(' ').append(b.ref[i]).append(' ').append(peerLocation(d, m, master, b.comm[i], b.ref[i]))
                        .append(' ').append(m.commIds[b.comm[i]]).append(' ')
                        .append(Integer.toUnsignedString(b.tag[i])).append(' ').append(Long.toUnsignedString(b.bytes[i]));
                if (k == EventKind.MPI_ISEND || k == EventKind.MPI_IRECV) {
                    s.append(' ').append(Long.toUnsignedString(b.aux[i]));
                }
            }
            case MPI_ISEND_COMPLETE, MPI_IRECV_REQUEST, MPI_REQUEST_TEST, MPI_REQUEST_CANCELLED ->
                    s.append(' ').append(Long.toUnsignedString(b.aux[i]));
            case MPI_COLLECTIVE_END -> {
                s.append(' ').append(CollectiveOp.of(b.ref[i]).name()).append(' ').append(m.commIds[b.comm[i]]);
                if (b.tag[i] < 0) {
                    s.append(" NONE");
                } else {
                    s.append(' ').append(b.tag[i]).append(' ')
                            .append(peerLocation(d, m, master, b.comm[i], b.tag[i]));
                }
                s.append(' ').append(Long.toUnsignedString(b.bytes[i])).append(' ')
                        .append(Long.toUnsignedString(b.aux[i]));
            }
            case MEASUREMENT_ON_OFF -> s.append(b.ref[i] == 1 ? " ON" : " OFF");
            case BUFFER_FLUSH -> s.append(' ').append(b.aux[i]);
            // otf2-print names OTF2_UNDEFINED_INT64, Score-P's "exit status unknown"
            case PROGRAM_END -> s.append(' ').append(b.bytes[i] == Long.MIN_VALUE ? "UNDEFINED" : b.bytes[i]);
            // otf2-print: the paradigm's code (its name is quoted), then the record's numbers
            case THREAD_FORK -> s.append(' ').append(b.comm[i]).append(' ').append(Integer.toUnsignedString(b.ref[i]));
            case THREAD_JOIN -> s.append(' ').append(b.comm[i]);
            case THREAD_ACQUIRE_LOCK, THREAD_RELEASE_LOCK -> s.append(' ').append(b.comm[i]).append(' ')
                    .append(Integer.toUnsignedString(b.ref[i])).append(' ').append(b.aux[i]);
            // the contingent communicator's id (otf2-print: <id> after its quoted name), the sequence count
            case THREAD_BEGIN -> s.append(' ').append(b.comm[i] >= 0 ? Long.toString(m.commIds[b.comm[i]])
                    : "UNDEFINED").append(' ').append(Long.toUnsignedString(b.aux[i]));
            default -> {
            }
        }
        return s.toString();
    }

    /** OTF2 id of the location of a communicator rank: its global rank's master thread. */
    private static String peerLocation(TraceDefinitions d, ModelMapping m, int[] master, int comm, int commRank) {
        Communicator c = d.communicator(comm);
        int global = c.globalRank(commRank);
        return Long.toUnsignedString(m.locationIds[master[global]]);
    }
}
