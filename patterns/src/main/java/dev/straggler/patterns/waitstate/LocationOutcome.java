package dev.straggler.patterns.waitstate;

/**
 * What the wait-state stage keeps of one location's analysis once its records are no longer needed: severities
 * per metric and local call path with the map to unified call paths, the location's most severe occurrences,
 * clock violations and unmatched records. Serializable: on Spark it is what a task sends to the driver, where
 * {@link WaitStates.Merge} books it exactly as the single-machine engine does.
 */
public final class LocationOutcome implements java.io.Serializable {
    final int location;
    final int[] globalPath;
    final LocationSeverities sev;
    final InstanceCollector instances;
    final long[] violations;
    final long unmatchedSends;
    final long unmatchedReceives;
    final long[] lateSenderWaits;
    final long[] lateReceiverWaits;

    LocationOutcome(int location, int[] globalPath, LocationSeverities sev, InstanceCollector instances,
                    long[] violations, long unmatchedSends, long unmatchedReceives, long[] lateSenderWaits,
                    long[] lateReceiverWaits) {
        this.location = location;
        this.globalPath = globalPath;
        this.sev = sev;
        this.instances = instances;
        this.violations = violations;
        this.unmatchedSends = unmatchedSends;
        this.unmatchedReceives = unmatchedReceives;
        this.lateSenderWaits = lateSenderWaits;
        this.lateReceiverWaits = lateReceiverWaits;
    }

    public int location() {
        return location;
    }

    /** Per receive row, the Late Sender wait kept for the root-cause stage (null unless asked for). */
    public long[] lateSenderWaits() {
        return lateSenderWaits;
    }

    /** Per send row, the Late Receiver wait kept for the root-cause stage (null unless asked for). */
    public long[] lateReceiverWaits() {
        return lateReceiverWaits;
    }

    /**
     * The outcome without its severities per call path (only the per-communicator waits stay): what a merge without
     * a cube needs ({@link WaitStates.Merge}), the severities being booked elsewhere
     * ({@link WaitStates#bookLocation}).
     */
    public LocationOutcome withoutSeverities() {
        return new LocationOutcome(location, globalPath, sev.communicatorsOnly(), instances, violations, unmatchedSends,
                unmatchedReceives, lateSenderWaits, lateReceiverWaits);
    }

    /** The same outcome without the per-record waits (what the wait-state merge needs). */
    public LocationOutcome withoutWaits() {
        return new LocationOutcome(location, globalPath, sev, instances, violations, unmatchedSends,
                unmatchedReceives, null, null);
    }
}
