/**
 * Self-contained HTML reports: {@link dev.straggler.cli.report.HtmlReport} for an analysed cube, built on
 * {@link dev.straggler.cli.report.HtmlPage}, which renders a list of
 * {@link dev.straggler.cli.report.HtmlSection}s with their data embedded as JSON and drawn by inline
 * scripts (resources {@code report-common.js}, {@code explorer.js}, {@code causes.js}, {@code critical-path.js},
 * {@code comm.js}, {@code scaling.js}, {@code report.css}).
 * Pages never touch the network.
 */
package dev.straggler.cli.report;
