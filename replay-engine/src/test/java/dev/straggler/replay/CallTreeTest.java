package dev.straggler.replay;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CallTreeTest {

    private static TraceBuilder trace() {
        TraceBuilder b = new TraceBuilder(3);
        b.rank(0).enter(0, "main").compute("a", 1, 2).compute("b", 3, 4).leave(10);
        b.rank(1).enter(0, "main").compute("b", 1, 2).enter(3, "c").compute("a", 4, 5).leave(6).leave(10);
        b.rank(2).enter(0, "main").compute("a", 1, 2).leave(10);
        return b;
    }

    private static String name(Replay r, int node) {
        return r.regions().region(r.callTree().region(node)).name();
    }

    @Test
    void identicalPathsOfDifferentLocationsAreOneNode() throws IOException {
        Replay r = Replay.run(trace().build(), ReplayOptions.defaults().withThreads(1));
        // main, main/a, main/b, main/c, main/c/a
        assertEquals(5, r.callTree().size());
        for (LocationData l : r.locations()) {
            assertEquals(0, l.globalCallPath(0)); // every location's first node is main
        }
    }

    @Test
    void idsAreDepthFirstPreorderWithSubtreesContiguous() throws IOException {
        Replay r = Replay.run(trace().build(), ReplayOptions.defaults().withThreads(1));
        CallTree t = r.callTree();
        String[] names = new String[t.size()];
        for (int i = 0; i < t.size(); i++) {
            names[i] = name(r, i);
            assertTrue(t.parent(i) < i);
        }
        assertArrayEquals(new String[]{"main", "a", "b", "c", "a"}, names);
        assertEquals(5, t.subtreeEnd(0));
        assertEquals(5, t.subtreeEnd(3));
        assertEquals(2, t.subtreeEnd(1));
    }

    @Test
    void treeIsTheSameForAnyThreadCount() throws IOException {
        Replay one = Replay.run(trace().build(), ReplayOptions.defaults().withThreads(1));
        Replay three = Replay.run(trace().build(), ReplayOptions.defaults().withThreads(3));
        assertEquals(one.callTree().size(), three.callTree().size());
        for (int i = 0; i < one.callTree().size(); i++) {
            assertEquals(one.callTree().parent(i), three.callTree().parent(i));
            assertEquals(one.callTree().region(i), three.callTree().region(i));
        }
    }

    @Test
    void pipelinedReadingGivesTheSameProfile() throws IOException {
        Replay direct = Replay.run(trace().build(), ReplayOptions.defaults().withThreads(2));
        Replay piped = Replay.run(trace().build(), ReplayOptions.defaults().withThreads(2).withPipelined(true));
        for (int l = 0; l < 3; l++) {
            LocationProfile a = direct.location(l).profile();
            LocationProfile b = piped.location(l).profile();
            assertEquals(a.size(), b.size());
            for (int n = 0; n < a.size(); n++) {
                assertEquals(a.inclusive(n), b.inclusive(n));
                assertEquals(a.visits(n), b.visits(n));
            }
        }
    }
}
