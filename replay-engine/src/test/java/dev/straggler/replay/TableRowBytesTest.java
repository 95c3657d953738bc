package dev.straggler.replay;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The bytes a row of a record table declares are those of its columns: the root-cause stage counts them as the heap
 * it frees, so a column added without updating the figure would let the stage start in a heap it cannot finish in.
 */
class TableRowBytesTest {
    private static int columnBytes(Class<?> table) {
        int bytes = 0;
        for (Field f : table.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            Class<?> t = f.getType();
            if (t == Columns.Longs.class) {
                bytes += Long.BYTES;
            } else if (t == Columns.Ints.class) {
                bytes += Integer.BYTES;
            } else if (t == Columns.Bytes.class) {
                bytes += Byte.BYTES;
            }
        }
        return bytes;
    }

    @Test
    void aSendRowIsItsColumnsBytes() {
        assertEquals(5 * 8 + 5 * 4 + 1, columnBytes(SendTable.class));
        assertEquals(columnBytes(SendTable.class), SendTable.BYTES_PER_ROW);
    }

    @Test
    void aReceiveRowIsItsColumnsBytes() {
        assertEquals(4 * 8 + 5 * 4 + 1, columnBytes(RecvTable.class));
        assertEquals(columnBytes(RecvTable.class), RecvTable.BYTES_PER_ROW);
    }
}
