package dev.straggler.patterns.cubex;

import dev.straggler.trace.Paradigm;
import dev.straggler.trace.RegionRole;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The strings a Cube anchor uses for a region's {@code <paradigm>} and {@code <role>}.
 *
 * <p>Roles follow the spelling Scalasca writes (and its remapping spec matches on, e.g. "point2point",
 * "other collective", "file io"); Score-P's own profile writer spells a few with underscores
 * ("file_io"), so reading normalises underscores to blanks. Unknown strings read as UNKNOWN rather than
 * failing: the strings are free text in the format.
 */
final class CubeRegionNames {
    private static final String[] ROLE = new String[RegionRole.values().length];
    private static final Map<String, RegionRole> ROLE_BY_NAME = new HashMap<>();
    private static final Map<String, Paradigm> PARADIGM_BY_NAME = new HashMap<>();

    static {
        role(RegionRole.UNKNOWN, "unknown");
        role(RegionRole.FUNCTION, "function");
        role(RegionRole.WRAPPER, "wrapper");
        role(RegionRole.LOOP, "loop");
        role(RegionRole.CODE, "code");
        role(RegionRole.PARALLEL, "parallel");
        role(RegionRole.SECTIONS, "sections");
        role(RegionRole.SECTION, "section");
        role(RegionRole.WORKSHARE, "workshare");
        role(RegionRole.SINGLE, "single");
        role(RegionRole.SINGLE_SBLOCK, "single sblock");
        role(RegionRole.MASTER, "master");
        role(RegionRole.CRITICAL, "critical");
        role(RegionRole.CRITICAL_SBLOCK, "critical sblock");
        role(RegionRole.ATOMIC, "atomic");
        role(RegionRole.BARRIER, "barrier");
        role(RegionRole.IMPLICIT_BARRIER, "implicit barrier");
        role(RegionRole.FLUSH, "flush");
        role(RegionRole.ORDERED, "ordered");
        role(RegionRole.ORDERED_SBLOCK, "ordered sblock");
        role(RegionRole.TASK, "task");
        role(RegionRole.TASK_CREATE, "task create");
        role(RegionRole.TASK_WAIT, "taskwait");
        role(RegionRole.COLL_ONE2ALL, "one2all");
        role(RegionRole.COLL_ALL2ONE, "all2one");
        role(RegionRole.COLL_ALL2ALL, "all2all");
        role(RegionRole.COLL_OTHER, "other collective");
        role(RegionRole.FILE_IO, "file io");
        role(RegionRole.POINT2POINT, "point2point");
        role(RegionRole.RMA, "rma");
        role(RegionRole.DATA_TRANSFER, "data transfer");
        role(RegionRole.ARTIFICIAL, "artificial");
        role(RegionRole.THREAD_CREATE, "thread create");
        role(RegionRole.THREAD_WAIT, "thread wait");
        role(RegionRole.TASK_UNTIED, "untied task");
        role(RegionRole.ALLOCATE, "allocate");
        role(RegionRole.DEALLOCATE, "deallocate");
        role(RegionRole.REALLOCATE, "reallocate");
        role(RegionRole.FILE_IO_METADATA, "file io metadata");
        ROLE_BY_NAME.put("task wait", RegionRole.TASK_WAIT);
        ROLE_BY_NAME.put("task untied", RegionRole.TASK_UNTIED);
        for (Paradigm p : Paradigm.values()) {
            PARADIGM_BY_NAME.put(paradigmName(p), p);
        }
    }

    private CubeRegionNames() {
    }

    private static void role(RegionRole r, String name) {
        ROLE[r.ordinal()] = name;
        ROLE_BY_NAME.put(name, r);
    }

    static String roleName(RegionRole role) {
        return ROLE[role.ordinal()];
    }

    static RegionRole role(String name) {
        String key = name.trim().toLowerCase(Locale.ROOT).replace('_', ' ');
        return ROLE_BY_NAME.getOrDefault(key, RegionRole.UNKNOWN);
    }

    /** Score-P and Scalasca write "measurement" for the measurement system; the rest is the lower-case name. */
    static String paradigmName(Paradigm p) {
        return p == Paradigm.MEASUREMENT_SYSTEM ? "measurement" : p.name().toLowerCase(Locale.ROOT);
    }

    static Paradigm paradigm(String name) {
        return PARADIGM_BY_NAME.getOrDefault(name.trim().toLowerCase(Locale.ROOT), Paradigm.UNKNOWN);
    }
}
