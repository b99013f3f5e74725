package io.sluice.storage.sink;

/**
 * What an {@link ArchiveSink} had done, over all its partitions, when it was asked ({@link ArchiveSink#counters}).
 *
 * @param rolls         every roll: all open files of a partition sealed at one offset
 * @param boundRolls    rolls forced by the open-file bound
 * @param pressureRolls rolls forced by the sink's memory limit, or by the engine's memory budget ({@code Sink.relieve})
 * @param sealedFiles   files sealed by rolls (each becomes visible once its manifest's commit succeeds)
 * @param published     files published
 */
public record ArchiveCounts(long rolls, long boundRolls, long pressureRolls, long sealedFiles, long published) {
}
