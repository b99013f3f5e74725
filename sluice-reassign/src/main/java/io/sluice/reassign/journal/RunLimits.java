package io.sluice.reassign.journal;

/**
 * The limits a run moves within, journaled with its plan so that a resume keeps them: how many partitions move at once
 * and the share of a disk no batch may take a log dir past. A resume that took its defaults instead moved five times
 * as many partitions at once as a run started with {@code --batch-size 2} (a review); the flags given to the resume
 * still win.
 *
 * <p>Immutable.
 */
public record RunLimits(int batchSize, double maxDiskUse) {
}
