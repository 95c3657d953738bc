package dev.straggler.cli.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The communication matrix's axis titles against what the canvas draws, on a matrix that is not symmetric: rank 0
 * sends to rank 1 and nothing comes back, so the one filled cell is row "sender 0", column "receiver 1".
 */
class CommMatrixBrowserTest {
    @TempDir
    Path tmp;

    @Test
    void axisTitlesPointTheWayTheRanksOfTheDrawingGrow() throws Exception {
        HtmlPage page = new HtmlPage("Matrix", "test").add(new CommMatrixSection(new long[][]{{0, 5}, {0, 0}},
                new long[][]{{0, 4096}, {0, 0}}));
        // where the filled cell lies within the grid of cells: empty cells are (248, 249, 251), filled ones blue
        String probe = """
                const c = document.getElementById('comm-canvas');
                const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                const box = () => ({x0: 1e9, y0: 1e9, x1: -1, y1: -1});
                const grid = box(), filled = box();
                const add = (b, x, y) => { b.x0 = Math.min(b.x0, x); b.y0 = Math.min(b.y0, y); b.x1 = Math.max(b.x1, x); b.y1 = Math.max(b.y1, y); };
                for (let y = 0; y < c.height; y++) for (let x = 0; x < c.width; x++) {
                  const o = 4 * (y * c.width + x), r = d[o], g = d[o + 1], b = d[o + 2];
                  const empty = r === 248 && g === 249 && b === 251, blue = b > r + 40;
                  if (empty || blue) add(grid, x, y);
                  if (blue) add(filled, x, y);
                }
                const text = id => { const e = document.getElementById(id); return e ? e.textContent : null; };
                document.body.dataset.probe = JSON.stringify({rows: text('comm-rows'), columns: text('comm-cols'),
                  top: (filled.y0 + filled.y1) / 2 < (grid.y0 + grid.y1) / 2,
                  right: (filled.x0 + filled.x1) / 2 > (grid.x0 + grid.x1) / 2});
                """;
        JsonNode r = new ObjectMapper().readTree(Chromium.probe(Chromium.dom(Chromium.withProbe(page.render(), probe), tmp)));
        // rows are senders and grow downwards: sender 0, the only one, is in the top row
        assertEquals("sender \u2193", r.get("rows").asText());
        assertTrue(r.get("top").asBoolean(), "rank 0's messages are drawn in the top row");
        // columns are receivers and grow to the right: receiver 1 is the right column
        assertEquals("receiver \u2192", r.get("columns").asText());
        assertTrue(r.get("right").asBoolean(), "the messages to rank 1 are drawn in the right column");
    }
}
