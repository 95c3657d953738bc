package dev.straggler.testdata;

import dev.straggler.trace.EventKind;
import dev.straggler.trace.Location;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.TraceDefinitions;
import dev.straggler.trace.otf2.Otf2Archive;
import dev.straggler.trace.otf2.Otf2Writer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hybrid scenarios' traces go through OTF2: written by the OTF2 writer, they read back with the same locations
 * (Score-P's worker ids t << 32 | rank, in the same order), regions and events, and the OTF2 C library's
 * {@code otf2-print} reads them, with the thread records where the simulator put them.
 */
class HybridOtf2Test {
    private static final Map<String, String> SMALL = Map.of("threads", "3", "reps", "2");

    @ParameterizedTest
    @ValueSource(strings = {"omp-imbalance-explicit-barrier", "omp-imbalance-implicit-barrier",
            "omp-critical-contention", "omp-serial-phase", "hybrid-omp-to-late-sender"})
    void hybridTraceReadsBackFromOtf2AndOtf2PrintAcceptsIt(String name, @TempDir Path dir) throws Exception {
        Scenario s = Scenarios.byName(name);
        ScenarioParams p = new ScenarioParams(2, 1, SMALL);
        MemoryTrace memory = new MemoryTrace(name);
        s.generate(p, memory);
        Path anchor = dir.resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(anchor)) {
            s.generate(p, w);
        }
        TraceDefinitions want = memory.definitions();
        try (Otf2Archive a = Otf2Archive.open(anchor)) {
            TraceDefinitions got = a.definitions();
            // the trace's regions, then the program region its PROGRAM_BEGIN records name (as Score-P defines it)
            assertEquals(want.regions(), got.regions().subList(0, want.regions().size()));
            assertEquals(java.util.List.of(name + " ARTIFICIAL MEASUREMENT_SYSTEM"), got.regions()
                    .subList(want.regions().size(), got.regions().size()).stream()
                    .map(r -> r.name() + " " + r.role() + " " + r.paradigm()).toList());
            assertEquals(6, got.locations().size());
            for (int l = 0; l < want.locations().size(); l++) {
                Location x = want.location(l);
                Location y = got.location(l);
                assertEquals(java.util.List.of(x.id(), x.name(), x.type(), x.rank(), x.thread()),
                        java.util.List.of(y.id(), y.name(), y.type(), y.rank(), y.thread()), "location " + l);
                assertTrue(memory.readLocation(l).sameEvents(a.readLocation(l)), "events of location " + l);
            }
        }
        Map<String, Integer> printed = threadRecordsPrinted(anchor);
        assertEquals(threadRecords(memory), printed);
        assertTrue(printed.keySet().stream().anyMatch(k -> k.startsWith("THREAD_FORK 1")), printed.toString());
    }

    /**
     * The paradigms are defined as Score-P defines them for an MPI+OpenMP run (shared hybrid traces): MPI of class
     * PROCESS, OpenMP of class THREAD_FORK_JOIN.
     */
    @org.junit.jupiter.api.Test
    void paradigmsAreDefinedWithScorePsClasses(@TempDir Path dir) throws Exception {
        Scenario s = Scenarios.byName("hybrid-omp-to-late-sender");
        Path anchor = dir.resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(anchor)) {
            s.generate(new ScenarioParams(2, 1, SMALL), w);
        }
        String defs = otf2Print(anchor, "-G");
        java.util.List<String> paradigms = defs.lines().filter(l -> l.startsWith("PARADIGM ")).map(String::strip)
                .map(l -> l.replaceAll("\\s+", " ").replaceAll(" <\\d+>", "")).toList();
        assertEquals(java.util.List.of("PARADIGM 4 MPI, Name: \"MPI\", Class: PROCESS",
                "PARADIGM 3 OPENMP, Name: \"OpenMP\", Class: THREAD_FORK_JOIN"), paradigms);
    }

    /**
     * Where Score-P 8.4 puts the thread-team records (shared trace omp-kernels-2x4): on the master THREAD_FORK,
     * THREAD_TEAM_BEGIN, ENTER of the parallel region … LEAVE of it, THREAD_TEAM_END, THREAD_JOIN; on a worker
     * THREAD_TEAM_BEGIN right before its ENTER of the parallel region and THREAD_TEAM_END right after its LEAVE. The
     * written trace has the same neighbours around every team record, one pair per thread and parallel region, and
     * every thread of a rank names its rank's team.
     */
    @ParameterizedTest
    @ValueSource(strings = {"hybrid-omp-to-late-sender", "omp-critical-contention", "omp-serial-phase"})
    void threadTeamRecordsSurroundEveryParallelRegionAsScorePWritesThem(String name, @TempDir Path dir)
            throws Exception {
        Path real = shared("hybrid/omp-kernels-2x4/traces.otf2");
        Path anchor = dir.resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(anchor)) {
            Scenarios.byName(name).generate(new ScenarioParams(2, 1, Map.of("threads", "4", "reps", "2")), w);
        }
        Teams scoreP = Teams.of(real);
        Teams ours = Teams.of(anchor);
        assertEquals(Map.of("master", java.util.Set.of("THREAD_FORK > THREAD_TEAM_BEGIN > ENTER PARALLEL",
                        "LEAVE PARALLEL > THREAD_TEAM_END > THREAD_JOIN"),
                "worker", java.util.Set.of("start > THREAD_TEAM_BEGIN > ENTER PARALLEL",
                        "THREAD_TEAM_END > THREAD_TEAM_BEGIN > ENTER PARALLEL",
                        "LEAVE PARALLEL > THREAD_TEAM_END > end",
                        "LEAVE PARALLEL > THREAD_TEAM_END > THREAD_TEAM_BEGIN")), scoreP.neighbours,
                "Score-P's placement");
        assertEquals(scoreP.neighbours, ours.neighbours);
        for (Map<String, Integer> counts : java.util.List.of(scoreP.counts, ours.counts)) {
            for (var e : counts.entrySet()) {
                if (e.getKey().startsWith("ENTER PARALLEL")) {
                    String loc = e.getKey().substring("ENTER PARALLEL".length());
                    assertEquals(e.getValue(), counts.get("THREAD_TEAM_BEGIN" + loc), loc);
                    assertEquals(e.getValue(), counts.get("THREAD_TEAM_END" + loc), loc);
                }
            }
        }
        assertEquals(8, ours.teamOfLocation.size());
        for (Teams t : java.util.List.of(scoreP, ours)) {
            // one team per rank, named by every thread of it (rank = location id's low 32 bits)
            Map<Long, java.util.Set<String>> byRank = new TreeMap<>();
            t.teamOfLocation.forEach((loc, team) -> byRank.computeIfAbsent(loc & 0xFFFF_FFFFL,
                    k -> new java.util.TreeSet<>()).add(team));
            assertEquals(2, byRank.size());
            byRank.values().forEach(teams -> assertEquals(1, teams.size(), byRank.toString()));
            assertEquals(2, byRank.values().stream().flatMap(java.util.Set::stream).distinct().count());
        }
    }

    /**
     * The thread-team definitions have Score-P's structure (shared trace omp-kernels-2x4, 2 ranks × 4 threads): the
     * OpenMP paradigm's COMM_NAME_TEMPLATE property, an OpenMP COMM_LOCATIONS group of every thread, rank by rank,
     * one COMM_GROUP per rank's team listing its threads by their index in that group, and per team an unnamed
     * communicator without parent.
     */
    @org.junit.jupiter.api.Test
    void threadTeamDefinitionsHaveScorePsStructure(@TempDir Path dir) throws Exception {
        Path real = shared("hybrid/omp-kernels-2x4/traces.otf2");
        Path anchor = dir.resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(anchor)) {
            Scenarios.byName("hybrid-omp-to-late-sender").generate(
                    new ScenarioParams(2, 1, Map.of("threads", "4", "reps", "2")), w);
        }
        java.util.List<String> want = openMpDefinitions(otf2Print(real, "-G"));
        assertEquals(6, want.size(), want.toString());
        assertEquals(want, openMpDefinitions(otf2Print(anchor, "-G")));
    }

    /**
     * Read back, a written hybrid archive has one more communicator per team (the reader takes thread teams for
     * communicators, as it does in Score-P's archives) and the program region; written again, it defines each of
     * them once, not twice, and reads back the same.
     */
    @org.junit.jupiter.api.Test
    void rewritingAWrittenHybridArchiveDefinesEachTeamOnce(@TempDir Path dir) throws Exception {
        Scenario s = Scenarios.byName("hybrid-omp-to-late-sender");
        ScenarioParams p = new ScenarioParams(3, 1, SMALL);
        MemoryTrace memory = new MemoryTrace("m");
        s.generate(p, memory);
        Path first = dir.resolve("first").resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(first)) {
            s.generate(p, w);
        }
        Path second = dir.resolve("second").resolve("traces.otf2");
        try (Otf2Archive a = Otf2Archive.open(first); Otf2Writer w = new Otf2Writer(second)) {
            for (int l = 0; l < a.definitions().locations().size(); l++) {
                w.append(l, a.readLocation(l));
            }
            w.finish(a.definitions());
        }
        try (Otf2Archive a = Otf2Archive.open(first); Otf2Archive b = Otf2Archive.open(second)) {
            java.util.List<String> comms = a.definitions().communicators().stream()
                    .map(c -> c.name() + java.util.Arrays.toString(c.members())).toList();
            assertEquals(java.util.List.of("MPI_COMM_WORLD[0, 1, 2]", "[0, 0, 0]", "[1, 1, 1]", "[2, 2, 2]"), comms);
            assertEquals(comms, b.definitions().communicators().stream()
                    .map(c -> c.name() + java.util.Arrays.toString(c.members())).toList());
            assertEquals(memory.definitions().regions().size() + 1, b.definitions().regions().size());
            assertEquals(a.definitions().regions(), b.definitions().regions());
            for (int l = 0; l < a.definitions().locations().size(); l++) {
                assertTrue(memory.readLocation(l).sameEvents(b.readLocation(l)), "events of location " + l);
            }
        }
        assertEquals(openMpDefinitions(otf2Print(first, "-G")), openMpDefinitions(otf2Print(second, "-G")));
        assertEquals(Teams.of(first), Teams.of(second));
    }

    /**
     * python3-otf2 (the OTF2 library's Python reader) reads the written hybrid archive, team records included, here
     * big-endian and over several chunks per thread; Straggler reads back the events it was given.
     */
    @org.junit.jupiter.api.Test
    void pythonOtf2ReadsTheThreadTeams(@TempDir Path dir) throws Exception {
        Scenario s = Scenarios.byName("omp-critical-contention");
        ScenarioParams p = new ScenarioParams(2, 1, Map.of("threads", "3", "reps", "6000"));
        Path anchor = dir.resolve("traces.otf2");
        try (Otf2Writer w = new Otf2Writer(anchor, dev.straggler.trace.otf2.Otf2WriterOptions.defaults()
                .withByteOrder(java.nio.ByteOrder.BIG_ENDIAN)
                .withChunkSizeEvents(dev.straggler.trace.otf2.Otf2WriterOptions.MIN_CHUNK))) {
            s.generate(p, w);
        }
        assertTrue(java.nio.file.Files.size(dir.resolve("traces").resolve("4294967297.evt"))
                > dev.straggler.trace.otf2.Otf2WriterOptions.MIN_CHUNK, "a worker spans several chunks");
        MemoryTrace memory = new MemoryTrace("m");
        s.generate(p, memory);
        try (Otf2Archive a = Otf2Archive.open(anchor)) {
            for (int l = 0; l < memory.definitions().locations().size(); l++) {
                assertTrue(memory.readLocation(l).sameEvents(a.readLocation(l)), "events of location " + l);
            }
        }
        int parallel = 0;
        for (Location l : memory.definitions().locations()) {
            var b = memory.readLocation(l.index());
            for (int i = 0; i < b.size; i++) {
                if (b.kindAt(i) == EventKind.ENTER
                        && memory.definitions().region(b.ref[i]).role() == dev.straggler.trace.RegionRole.PARALLEL) {
                    parallel++;
                }
            }
        }
        String script = String.join("\n", "import sys, collections, otf2",
                "n = collections.Counter()",
                "with otf2.reader.open(sys.argv[1]) as t:",
                "    for loc, e in t.events:",
                "        n[type(e).__name__] += 1",
                "    teams = sorted(len(c.group.members) for c in t.definitions.comms",
                "                   if c.group.paradigm == otf2.Paradigm.OPENMP)",
                "print(n['ThreadTeamBegin'], n['ThreadTeamEnd'], teams)");
        Process proc = new ProcessBuilder("/usr/bin/python3", "-c", script, anchor.toString())
                .redirectErrorStream(true).start();
        String out;
        try (InputStream in = proc.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
        int rc = proc.waitFor();
        Assumptions.assumeFalse(rc != 0 && out.contains("No module named"), "python3-otf2 is not installed");
        assertEquals(0, rc, out);
        assertEquals(parallel + " " + parallel + " [3, 3]", out);
    }

    private static Path shared(String relative) {
        String root = System.getProperty("straggler.shared");
        Assumptions.assumeTrue(root != null, "system property straggler.shared is not set");
        Path p = Path.of(root, "traces").resolve(relative);
        Assumptions.assumeTrue(java.nio.file.Files.isRegularFile(p), "shared trace " + p + " is absent");
        return p;
    }

    /**
     * The OpenMP definitions otf2-print -G shows, without definition ids and string references (location ids
     * stay): the paradigm property, the OpenMP groups, and the communicators over OpenMP groups.
     */
    private static java.util.List<String> openMpDefinitions(String defs) {
        java.util.Set<String> groups = new java.util.HashSet<>();
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String line : defs.lines().toList()) {
            String[] f = line.strip().split("\\s+", 3);
            boolean openMp = line.contains("Paradigm: \"OpenMP\"");
            if (f[0].equals("PARADIGM_PROPERTY") && openMp) {
                out.add(normalise(line.strip()));
            } else if (f[0].equals("GROUP") && openMp) {
                groups.add(f[1]);
                out.add("GROUP " + normalise(f[2]));
            } else if (f[0].equals("COMM")) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("Group: \"[^\"]*\" <(\\d+)>").matcher(f[2]);
                if (m.find() && groups.contains(m.group(1))) {
                    out.add("COMM " + normalise(f[2]));
                }
            }
        }
        return out;
    }

    /** Drops the string and definition references after the named fields (keeps members' location ids). */
    private static String normalise(String s) {
        return s.replaceAll("((?:Name|Paradigm|Group|Value|Parent): \"[^\"]*\") <\\d+>", "$1")
                .replaceAll("\\s+", " ");
    }

    /**
     * The thread-team records of an archive as otf2-print lists them: for every team record the kinds of the
     * records just before and after it on its location ("master" is thread 0), the counts of team records and
     * parallel-region ENTERs per location, and the communicator each location's team records name.
     */
    private record Teams(Map<String, java.util.Set<String>> neighbours, Map<String, Integer> counts,
                         Map<Long, String> teamOfLocation) {
        static Teams of(Path anchor) throws Exception {
            java.util.Set<String> parallel = new java.util.HashSet<>();
            for (String line : otf2Print(anchor, "-G").lines().toList()) {
                String[] f = line.strip().split("\\s+", 3);
                if (f[0].equals("REGION") && line.contains("Role: PARALLEL,")) {
                    parallel.add(f[1]);
                }
            }
            Map<Long, java.util.List<String[]>> byLocation = new TreeMap<>();
            for (String line : otf2Print(anchor).lines().toList()) {
                String[] f = line.strip().split("\\s+", 4);
                if (f.length >= 3 && f[1].matches("\\d+") && f[2].matches("\\d+")) {
                    String kind = f[0];
                    String detail = f.length > 3 ? f[3] : "";
                    if (kind.equals("ENTER") || kind.equals("LEAVE")) {
                        String ref = detail.substring(detail.lastIndexOf('<') + 1, detail.lastIndexOf('>'));
                        kind += parallel.contains(ref) ? " PARALLEL" : " other";
                    }
                    byLocation.computeIfAbsent(Long.parseUnsignedLong(f[1]), k -> new java.util.ArrayList<>())
                            .add(new String[] {kind, detail});
                }
            }
            Map<String, java.util.Set<String>> neighbours = new TreeMap<>();
            Map<String, Integer> counts = new TreeMap<>();
            Map<Long, String> team = new TreeMap<>();
            byLocation.forEach((loc, events) -> {
                String role = loc >>> 32 == 0 ? "master" : "worker";
                for (int i = 0; i < events.size(); i++) {
                    String kind = events.get(i)[0];
                    counts.merge(kind + " " + loc, 1, Integer::sum);
                    if (kind.startsWith("THREAD_TEAM_")) {
                        String before = i == 0 ? "start" : events.get(i - 1)[0];
                        String after = i + 1 == events.size() ? "end" : events.get(i + 1)[0];
                        neighbours.computeIfAbsent(role, k -> new java.util.TreeSet<>())
                                .add(before + " > " + kind + " > " + after);
                        team.put(loc, events.get(i)[1].replaceAll(".*<(\\d+)>.*", "$1"));
                    }
                }
            });
            return new Teams(neighbours, counts, team);
        }
    }

    private static String otf2Print(Path anchor, String... options) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("otf2-print"));
        cmd.addAll(java.util.List.of(options));
        cmd.add(anchor.toString());
        Process proc;
        try {
            proc = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("otf2-print is not installed");
            throw e;
        }
        String out;
        try (InputStream in = proc.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(0, proc.waitFor(), out);
        return out;
    }

    /** "KIND location-id" → count of the thread records of the trace. */
    private static Map<String, Integer> threadRecords(MemoryTrace t) {
        Map<String, Integer> m = new TreeMap<>();
        for (Location l : t.definitions().locations()) {
            var b = t.readLocation(l.index());
            for (int i = 0; i < b.size; i++) {
                EventKind k = b.kindAt(i);
                if (k.isThread()) {
                    m.merge(k + " " + Long.toUnsignedString(l.id()), 1, Integer::sum);
                }
            }
        }
        return m;
    }

    /** The same count from otf2-print's event listing (test skipped where otf2-print is not installed). */
    private static Map<String, Integer> threadRecordsPrinted(Path anchor) throws Exception {
        String out = otf2Print(anchor);
        Map<String, Integer> m = new TreeMap<>();
        for (String line : out.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 2 && f[0].startsWith("THREAD_") && !f[0].startsWith("THREAD_TEAM_")) {
                m.merge(f[0] + " " + f[1], 1, Integer::sum);
            }
        }
        return m;
    }
}
