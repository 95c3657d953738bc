package dev.straggler.trace.otf2;

/**
 * Numeric facts of the OTF2 on-disk format (reference §6, checked against files written by OTF2 3.0.2): buffer
 * control bytes, record identifiers, and the names otf2-print gives records.
 */
public final class Otf2Format {
    private Otf2Format() {
    }

    // Buffer control records (§6.2).
    public static final int END_OF_CHUNK = 0;
    public static final int END_OF_BUFFER = 1;
    public static final int END_OF_FILE = 2;
    public static final int CHUNK_HEADER = 3;
    public static final int TIMESTAMP = 5;
    public static final int ATTRIBUTE_LIST = 6;

    public static final int BIG_ENDIAN_MARK = 0x23;
    public static final int LITTLE_ENDIAN_MARK = 0x42;

    /** Chunk header of chunked files: type, byte order, first and last event number (uint64 each). */
    public static final int CHUNK_HEADER_SIZE = 18;

    /** OTF2's undefined 32-bit reference (all ones) as a Java int. */
    public static final int UNDEFINED_U32 = -1;
    /** OTF2's undefined 64-bit reference (all ones) as a Java long. */
    public static final long UNDEFINED_U64 = -1L;

    // Event records (src/otf2_events_int.h; 85-88 added by OTF2 3.0).
    public static final int EVT_BUFFER_FLUSH = 10;
    public static final int EVT_MEASUREMENT_ON_OFF = 11;
    public static final int EVT_ENTER = 12;
    public static final int EVT_LEAVE = 13;
    public static final int EVT_MPI_SEND = 14;
    public static final int EVT_MPI_ISEND = 15;
    public static final int EVT_MPI_ISEND_COMPLETE = 16;
    public static final int EVT_MPI_IRECV_REQUEST = 17;
    public static final int EVT_MPI_RECV = 18;
    public static final int EVT_MPI_IRECV = 19;
    public static final int EVT_MPI_REQUEST_TEST = 20;
    public static final int EVT_MPI_REQUEST_CANCELLED = 21;
    public static final int EVT_MPI_COLLECTIVE_BEGIN = 22;
    public static final int EVT_MPI_COLLECTIVE_END = 23;
    public static final int EVT_OMP_FORK = 24;
    public static final int EVT_OMP_TASK_CREATE = 28;
    public static final int EVT_OMP_TASK_SWITCH = 29;
    public static final int EVT_OMP_TASK_COMPLETE = 30;
    public static final int EVT_METRIC = 31;
    public static final int EVT_THREAD_FORK = 53;
    public static final int EVT_THREAD_JOIN = 54;
    public static final int EVT_THREAD_TEAM_BEGIN = 55;
    public static final int EVT_THREAD_TEAM_END = 56;
    public static final int EVT_THREAD_ACQUIRE_LOCK = 57;
    public static final int EVT_THREAD_RELEASE_LOCK = 58;
    public static final int EVT_THREAD_BEGIN = 63;
    public static final int EVT_PROGRAM_BEGIN = 83;
    public static final int EVT_PROGRAM_END = 84;
    public static final int EVT_MAX_KNOWN = 88;

    // Definition records (src/otf2_global_definitions.h, src/otf2_local_definitions.h; 37-43 since OTF2 2.x/3.0).
    public static final int DEF_MAPPING_TABLE = 5;
    public static final int DEF_CLOCK_OFFSET = 6;
    public static final int DEF_CLOCK_PROPERTIES = 5;
    public static final int DEF_PARADIGM = 6;
    public static final int DEF_PARADIGM_PROPERTY = 7;
    public static final int DEF_STRING = 10;
    public static final int DEF_ATTRIBUTE = 11;
    public static final int DEF_SYSTEM_TREE_NODE = 12;
    public static final int DEF_LOCATION_GROUP = 13;
    public static final int DEF_LOCATION = 14;
    public static final int DEF_REGION = 15;
    public static final int DEF_CALLSITE = 16;
    public static final int DEF_CALLPATH = 17;
    public static final int DEF_GROUP = 18;
    public static final int DEF_METRIC_MEMBER = 19;
    public static final int DEF_METRIC_CLASS = 20;
    public static final int DEF_COMM = 22;
    public static final int DEF_INTER_COMM = 43;

    // Enumerations (include/otf2/OTF2_Definitions.h, OTF2_GeneralDefinitions.h).
    public static final int PARADIGM_MPI = 4;
    public static final int PARADIGM_CLASS_PROCESS = 0;
    public static final int PARADIGM_CLASS_THREAD_FORK_JOIN = 1;
    public static final int PARADIGM_PROPERTY_COMM_NAME_TEMPLATE = 0;
    public static final int TYPE_STRING = 11;
    public static final int LOCATION_GROUP_PROCESS = 1;
    public static final int GROUP_LOCATIONS = 1;
    public static final int GROUP_COMM_LOCATIONS = 4;
    public static final int GROUP_COMM_GROUP = 5;
    public static final int GROUP_COMM_SELF = 6;
    public static final int MAPPING_STRING = 0;
    public static final int MAPPING_REGION = 3;
    public static final int MAPPING_METRIC = 5;
    public static final int MAPPING_COMM = 6;
    public static final int MAPPING_TYPES = 15;
    public static final int SUBSTRATE_POSIX = 1;
    public static final int SUBSTRATE_SION = 2;
    public static final int SUBSTRATE_NONE = 3;
    public static final int COMPRESSION_NONE = 1;
    public static final int COMPRESSION_ZLIB = 2;

    private static final String[] EVENT_NAMES = new String[256];
    private static final String[] GLOBAL_DEFINITION_NAMES = new String[256];
    private static final String[] LOCAL_DEFINITION_NAMES = new String[256];
    private static final boolean[] NO_LENGTH = new boolean[256];

    static {
        // Names as otf2-print labels the records: these are the keys of every count Straggler reports.
        String[] events = {
            "BUFFER_FLUSH", "MEASUREMENT_ON_OFF", "ENTER", "LEAVE", "MPI_SEND", "MPI_ISEND", "MPI_ISEND_COMPLETE",
            "MPI_IRECV_REQUEST", "MPI_RECV", "MPI_IRECV", "MPI_REQUEST_TEST", "MPI_REQUEST_CANCELLED",
            "MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END", "OMP_FORK", "OMP_JOIN", "OMP_ACQUIRE_LOCK",
            "OMP_RELEASE_LOCK", "OMP_TASK_CREATE", "OMP_TASK_SWITCH", "OMP_TASK_COMPLETE", "METRIC",
            "PARAMETER_STRING", "PARAMETER_INT64", "PARAMETER_UINT64", "RMA_WIN_CREATE", "RMA_WIN_DESTROY",
            "RMA_COLLECTIVE_BEGIN", "RMA_COLLECTIVE_END", "RMA_GROUP_SYNC", "RMA_REQUEST_LOCK", "RMA_ACQUIRE_LOCK",
            "RMA_TRY_LOCK", "RMA_RELEASE_LOCK", "RMA_SYNC", "RMA_WAIT_CHANGE", "RMA_PUT", "RMA_GET", "RMA_ATOMIC",
            "RMA_OP_COMPLETE_BLOCKING", "RMA_OP_COMPLETE_NON_BLOCKING", "RMA_OP_TEST", "RMA_OP_COMPLETE_REMOTE",
            "THREAD_FORK", "THREAD_JOIN", "THREAD_TEAM_BEGIN", "THREAD_TEAM_END", "THREAD_ACQUIRE_LOCK",
            "THREAD_RELEASE_LOCK", "THREAD_TASK_CREATE", "THREAD_TASK_SWITCH", "THREAD_TASK_COMPLETE",
            "THREAD_CREATE", "THREAD_BEGIN", "THREAD_WAIT", "THREAD_END", "CALLING_CONTEXT_ENTER",
            "CALLING_CONTEXT_LEAVE", "CALLING_CONTEXT_SAMPLE", "IO_CREATE_HANDLE", "IO_DESTROY_HANDLE",
            "IO_DUPLICATE_HANDLE", "IO_SEEK", "IO_CHANGE_FLAGS", "IO_DELETE_FILE", "IO_OPERATION_BEGIN",
            "IO_OPERATION_TEST", "IO_OPERATION_ISSUED", "IO_OPERATION_COMPLETE", "IO_OPERATION_CANCELLED",
            "IO_ACQUIRE_LOCK", "IO_RELEASE_LOCK", "IO_TRY_LOCK", "PROGRAM_BEGIN", "PROGRAM_END",
            "NON_BLOCKING_COLLECTIVE_REQUEST", "NON_BLOCKING_COLLECTIVE_COMPLETE", "COMM_CREATE", "COMM_DESTROY"};
        for (int i = 0; i < events.length; i++) {
            EVENT_NAMES[EVT_BUFFER_FLUSH + i] = events[i];
        }
        String[] defs = {
            "CLOCK_PROPERTIES", "PARADIGM", "PARADIGM_PROPERTY", "IO_PARADIGM", null, "STRING", "ATTRIBUTE",
            "SYSTEM_TREE_NODE", "LOCATION_GROUP", "LOCATION", "REGION", "CALLSITE", "CALLPATH", "GROUP",
            "METRIC_MEMBER", "METRIC_CLASS", "METRIC_INSTANCE", "COMM", "PARAMETER", "RMA_WIN",
            "METRIC_CLASS_RECORDER", "SYSTEM_TREE_NODE_PROPERTY", "SYSTEM_TREE_NODE_DOMAIN",
            "LOCATION_GROUP_PROPERTY", "LOCATION_PROPERTY", "CART_DIMENSION", "CART_TOPOLOGY", "CART_COORDINATE",
            "SOURCE_CODE_LOCATION", "CALLING_CONTEXT", "CALLING_CONTEXT_PROPERTY", "INTERRUPT_GENERATOR",
            "IO_FILE_PROPERTY", "IO_REGULAR_FILE", "IO_DIRECTORY", "IO_HANDLE", "IO_PRE_CREATED_HANDLE_STATE",
            "CALLPATH_PARAMETER", "INTER_COMM"};
        for (int i = 0; i < defs.length; i++) {
            GLOBAL_DEFINITION_NAMES[DEF_CLOCK_PROPERTIES + i] = defs[i];
            LOCAL_DEFINITION_NAMES[DEF_CLOCK_PROPERTIES + i] = defs[i];
        }
        LOCAL_DEFINITION_NAMES[DEF_MAPPING_TABLE] = "MAPPING_TABLE";
        LOCAL_DEFINITION_NAMES[DEF_CLOCK_OFFSET] = "CLOCK_OFFSET";
        LOCAL_DEFINITION_NAMES[7] = null;
        LOCAL_DEFINITION_NAMES[8] = null;
        // Records whose only field is one compressed integer carry no length byte (§6.2,
        // OTF2_EvtReader.c::otf2_evt_reader_skip); every record added since has one.
        for (int id : new int[] {EVT_ENTER, EVT_LEAVE, EVT_MPI_ISEND_COMPLETE, EVT_MPI_IRECV_REQUEST,
            EVT_MPI_REQUEST_TEST, EVT_MPI_REQUEST_CANCELLED, EVT_OMP_FORK, EVT_OMP_TASK_CREATE, EVT_OMP_TASK_SWITCH,
            EVT_OMP_TASK_COMPLETE}) {
            NO_LENGTH[id] = true;
        }
    }

    /** The otf2-print name of an event record, {@code UNKNOWN(id)} for ids this reader does not know. */
    public static String eventName(int id) {
        String n = id >= 0 && id < 256 ? EVENT_NAMES[id] : null;
        return n != null ? n : "UNKNOWN(" + id + ")";
    }

    /** Event record id of an otf2-print name, -1 when none. */
    public static int eventId(String name) {
        for (int i = 0; i < 256; i++) {
            if (name.equals(EVENT_NAMES[i])) {
                return i;
            }
        }
        return -1;
    }

    public static String globalDefinitionName(int id) {
        String n = id >= 0 && id < 256 ? GLOBAL_DEFINITION_NAMES[id] : null;
        return n != null ? n : "UNKNOWN(" + id + ")";
    }

    public static String localDefinitionName(int id) {
        String n = id >= 0 && id < 256 ? LOCAL_DEFINITION_NAMES[id] : null;
        return n != null ? n : "UNKNOWN(" + id + ")";
    }

    /** True for the event records written without a record-length field. */
    public static boolean hasNoLength(int id) {
        return NO_LENGTH[id & 0xFF];
    }

    /** Event records Straggler's model carries ({@link dev.straggler.trace.EventKind}); all others are skipped. */
    public static boolean isModelEvent(int id) {
        return id >= EVT_BUFFER_FLUSH && id <= EVT_MPI_COLLECTIVE_END || id == EVT_PROGRAM_BEGIN
                || id == EVT_PROGRAM_END || id == EVT_THREAD_FORK || id == EVT_THREAD_JOIN
                || id == EVT_THREAD_ACQUIRE_LOCK || id == EVT_THREAD_RELEASE_LOCK || id == EVT_THREAD_BEGIN;
    }
}
