package io.sluice.storage.sink;

/**
 * What an {@link ArchiveSink} had done, over all its partitions, when it was asked ({@link ArchiveSink#counters}).
 *
 * @param rolls         every roll: all open files of a partition sealed at one offset
 * @param boundRolls    rolls forced by the open-file bound: the files it evicted reached their bound
 * @param pressureRolls rolls forced by the sink's memory limit, or by the engine's memory budget ({@code Sink.relieve})
 * @param evictions     files sealed alone at the open-file bound (the least recently written), parked until the next
 *                      roll
 * @param sealedFiles   files sealed by rolls and evictions (each becomes visible once a manifest naming it is committed)
 * @param published     files published
 */
public record ArchiveCounts(long rolls, long boundRolls, long pressureRolls, long evictions, long sealedFiles,
        long published) {
}
