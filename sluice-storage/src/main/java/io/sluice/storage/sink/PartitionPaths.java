package io.sluice.storage.sink;

import org.apache.kafka.common.TopicPartition;

/**
 * Where one partition's files go in the store: staged (invisible) while open or sealed, published under the layout's
 * directories, and its manifests. Staging and manifests are keyed by topic ID, so a deleted and recreated topic is
 * never mistaken for the archived one.
 */
record PartitionPaths(TopicPartition partition, String topicId) {

    /**
     * Every staged file of the partition is under it: a recovery removes what no committed manifest names, at its
     * owner's first commit.
     */
    String staging() {
        return "_sluice/staging/" + topicId + "/" + partition.partition() + "/";
    }

    String manifests() {
        return Manifest.directory(topicId, partition.partition());
    }

    /** The published path of the file that starts at {@code firstOffset} in {@code directory}. */
    String file(String directory, long firstOffset, String extension) {
        return directory + partition.topic() + "+" + partition.partition() + "+" + firstOffset + extension;
    }
}
