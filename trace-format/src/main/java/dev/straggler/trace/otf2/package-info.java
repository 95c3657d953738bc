/**
 * OTF2 in pure Java: reads Score-P's trace format (OTF2 1.4 to 3.x, POSIX substrate, uncompressed or ZLIB) into
 * Straggler's model, and writes it back.
 *
 * <ul>
 *   <li>{@link dev.straggler.trace.otf2.Otf2Archive#open} opens an archive by its anchor file or directory and is a
 *       {@link dev.straggler.trace.TraceSource}: definitions at once, each location's events streamed chunk by chunk
 *       (in parallel across locations), references in dense model ids, timestamps clock-corrected raw ticks.</li>
 *   <li>{@link dev.straggler.trace.otf2.Otf2Archive#scanStatistics} counts every event record by otf2-print name and
 *       by model kind, in one parallel pass; records outside the model are skipped by their length and counted,
 *       never lost silently.</li>
 *   <li>{@link dev.straggler.trace.otf2.Otf2Options#lenient()} keeps what can be trusted in a damaged archive and
 *       lists what was skipped in {@link dev.straggler.trace.otf2.Otf2Archive#warnings()}.</li>
 *   <li>{@link dev.straggler.trace.otf2.Otf2Writer} writes a trace as an OTF2 3.0 archive.</li>
 * </ul>
 *
 * <p>Format facts: {@code reference.md} §6, checked against files written by the OTF2 3.0.2 library and against
 * otf2-print's reading of them and of real Score-P traces (the tests).
 */
package dev.straggler.trace.otf2;
