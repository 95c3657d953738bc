package dev.straggler.replay;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The projection of the marks a whole trace needs, from the part of it read so far. */
class MarkBudgetTest {

    @Test
    void noDecisionBeforeTheTrustedShareOfTheEventsIsRead() {
        // 1,000 events; 40 read with 4 marks would project 100 marks of 10 bytes, over a heap of 500 bytes
        MarkBudget b = new MarkBudget(1_000, 500, 10);
        assertFalse(b.note(40, 4));
        assertEquals(-1, b.projectedMarks());
    }

    @Test
    void marksProjectedFromTheShareReadDecideOnceItIsTrusted() {
        MarkBudget b = new MarkBudget(1_000, 999, 10);
        b.note(40, 4);
        // 60 events with 6 marks: 100 marks for 1,000 events, 1,000 bytes > 999
        assertTrue(b.note(20, 2));
        assertEquals(100, b.projectedMarks());
        assertEquals(0.06, b.shareRead(), 1e-12);
    }

    @Test
    void theOpenMpShareOfTheMarksIsProjectedWithThem() {
        MarkBudget b = new MarkBudget(1_000, 999, 10);
        // 60 events with 6 marks, 3 of them OpenMP: 100 marks for 1,000 events, 50 of them OpenMP
        b.noteOpenMp(2);
        b.note(40, 4);
        b.noteOpenMp(1);
        assertTrue(b.note(20, 2));
        assertEquals(100, b.projectedMarks());
        assertEquals(50, b.projectedOpenMpMarks());
    }

    @Test
    void aProjectionThatFitsTheHeapExactlyKeepsTheMarks() {
        MarkBudget b = new MarkBudget(1_000, 1_000, 10);
        b.note(40, 4);
        assertFalse(b.note(20, 2));
        assertFalse(b.note(940, 94));
        assertFalse(b.exceeded());
    }

    @Test
    void marksThatFitOnlyInTheScratchFileAreKeptThereAndJudgedAtItsFigure() {
        // 100 marks projected: 1,000 bytes at 10 each do not fit 999, 600 at 6 each in the scratch file do
        MarkBudget b = new MarkBudget(1_000, 999, 10, 6);
        assertFalse(b.note(60, 6));
        assertTrue(b.spillMarks());
        assertFalse(b.exceeded());
        // later batches raise the projection to 200 marks: 1,200 bytes even in the scratch file
        assertTrue(b.note(40, 14));
        assertEquals(200, b.projectedMarks());
    }

    @Test
    void withoutAScratchFigureMarksOverTheHeapAreDropped() {
        MarkBudget b = new MarkBudget(1_000, 999, 10, 0);
        assertTrue(b.note(60, 6));
        assertFalse(b.spillMarks());
    }

    @Test
    void marksThatFitOnTheHeapStayThere() {
        MarkBudget b = new MarkBudget(1_000, 1_000, 10, 6);
        assertFalse(b.note(100, 10));
        assertFalse(b.spillMarks());
    }

    @Test
    void onceExceededItStaysExceeded() {
        MarkBudget b = new MarkBudget(1_000, 999, 10);
        assertTrue(b.note(100, 10));
        assertTrue(b.note(900, 0));
        assertEquals(100, b.projectedMarks());
    }

    @Test
    void aBudgetNeedsPositiveEventsHeapAndBytes() {
        assertThrows(IllegalArgumentException.class, () -> new MarkBudget(0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new MarkBudget(1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new MarkBudget(1, 1, 0));
    }

    @Test
    void declaredRecordsGiveNoDecisionBeforeALocationIsReadWhole() {
        // two locations of 500 records each; nothing is known of the events until one is complete
        MarkBudget b = MarkBudget.ofRecords(new long[]{500, 500}, 999, 10);
        assertFalse(b.note(400, 40));
        assertEquals(-1, b.projectedMarks());
    }

    @Test
    void declaredRecordsAreScaledByTheEventsOfTheLocationsReadWhole() {
        // location 0: 500 records held 400 events (the rest outside the model), so 1,000 records hold about 800
        // events; 400 events with 40 marks project 80 marks of 10 bytes, 800 bytes
        MarkBudget fits = MarkBudget.ofRecords(new long[]{500, 500}, 800, 10);
        fits.note(400, 40);
        fits.locationDone(0, 400);
        assertFalse(fits.note(0, 0));
        MarkBudget over = MarkBudget.ofRecords(new long[]{500, 500}, 799, 10);
        over.note(400, 40);
        over.locationDone(0, 400);
        assertTrue(over.note(0, 0));
        assertEquals(80, over.projectedMarks());
        assertEquals(0.5, over.shareRead(), 1e-12);
    }
}
