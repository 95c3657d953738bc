/**
 * Comparing runs at several process counts.
 *
 * <ul>
 *   <li>{@link dev.straggler.patterns.scaling.RankCorrelation}: Vetter and McCracken's rank-correlation analysis of
 *       callsites ({@link dev.straggler.patterns.scaling.ScalingExperiment}) and, through
 *       {@link dev.straggler.patterns.scaling.WaitStateScaling}, of wait states per pattern and call path and of
 *       delay costs per kind and delaying call path;
 *       {@link dev.straggler.patterns.scaling.Spearman} is the statistic.</li>
 *   <li>{@link dev.straggler.patterns.scaling.MedyaModel}: {@code T(p) = c0 + c1/p + c2/√p} for total, computation and
 *       communication, predictions and the crossover; {@link dev.straggler.patterns.scaling.BandwidthDemand}: the
 *       paper's bandwidth demand from throttled runs (CTI, BW_CTI,p, demand constant, prediction), reported by
 *       {@link dev.straggler.patterns.scaling.BandwidthReport} ({@code straggler bandwidth}).</li>
 *   <li>{@link dev.straggler.patterns.scaling.PmnfModeler}: Extra-P's normal-form model search with leave-one-out
 *       cross-validation and a confidence band ({@link dev.straggler.patterns.scaling.PmnfModel#interval});
 *       {@link dev.straggler.patterns.scaling.ModelSearch} applies it to many series and
 *       {@link dev.straggler.patterns.scaling.ExtraPText} exports them for Extra-P.</li>
 *   <li>{@link dev.straggler.patterns.scaling.ScalingInputs} derives the inputs from severity cubes or callsite
 *       statistics; {@link dev.straggler.patterns.scaling.ScalingText} and
 *       {@link dev.straggler.patterns.scaling.ScalingJson} render the results (the JSON carries the data the HTML
 *       plots need).</li>
 * </ul>
 */
package dev.straggler.patterns.scaling;
