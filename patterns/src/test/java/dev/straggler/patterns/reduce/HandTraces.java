package dev.straggler.patterns.reduce;

import dev.straggler.trace.EventBatch;
import dev.straggler.trace.Location;
import dev.straggler.trace.MemoryTrace;
import dev.straggler.trace.Paradigm;
import dev.straggler.trace.RegionRole;
import dev.straggler.trace.TraceDefinitions;

import java.util.List;

/** Small traces written by hand, one rank each, times in nanoseconds. */
final class HandTraces {
    private HandTraces() {
    }

    /**
     * {@code main} calls {@code f} and {@code g} 100 times each, both calling MPI_Send, then {@code h} once, which
     * calls the short {@code leaf} 1000 times; the functions named in {@code extra} are called once from main.
     */
    static MemoryTrace twoCallersOfSend(List<String> extra) {
        TraceDefinitions.Builder d = TraceDefinitions.builder();
        int main = d.addRegion("main", "a.c", 1, 9, Paradigm.USER, RegionRole.FUNCTION);
        int f = d.addRegion("f", "a.c", 10, 19, Paradigm.USER, RegionRole.FUNCTION);
        int g = d.addRegion("g", "a.c", 20, 29, Paradigm.USER, RegionRole.FUNCTION);
        int h = d.addRegion("h", "a.c", 30, 39, Paradigm.USER, RegionRole.FUNCTION);
        int leaf = d.addRegion("leaf", "a.c", 40, 49, Paradigm.USER, RegionRole.FUNCTION);
        int send = d.addRegion("MPI_Send", "MPI", 0, 0, Paradigm.MPI, RegionRole.POINT2POINT);
        int[] others = new int[extra.size()];
        for (int i = 0; i < others.length; i++) {
            others[i] = d.addRegion(extra.get(i), "b.cpp", 0, 0, Paradigm.COMPILER, RegionRole.FUNCTION);
        }
        d.addCommunicator("MPI_COMM_WORLD", new int[] {0}, -1);
        d.location(Location.masterThread(0, 0));
        EventBatch b = new EventBatch();
        long t = 0;
        b.enter(t += 10, main);
        for (int caller : new int[] {f, g}) {
            for (int i = 0; i < 100; i++) {
                b.enter(t += 10, caller);
                b.enter(t += 10, send);
                b.send(t += 10, 0, 0, 1, 8);
                b.leave(t += 1000, send);
                b.leave(t += 10, caller);
            }
        }
        b.enter(t += 10, h);
        for (int i = 0; i < 1000; i++) {
            b.enter(t += 10, leaf);
            b.leave(t += 10, leaf);
        }
        b.leave(t += 10, h);
        for (int o : others) {
            b.enter(t += 10, o);
            b.leave(t += 10, o);
        }
        b.leave(t += 10, main);
        return new MemoryTrace(d.build(), List.of(b), "hand-written");
    }
}
