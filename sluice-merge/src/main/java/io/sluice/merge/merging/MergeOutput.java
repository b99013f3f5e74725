package io.sluice.merge.merging;

import io.sluice.merge.order.MergeKey;

/**
 * Where the merge of one output partition settles each record, in merge order. A method that returns has settled the
 * record for the next commit (sent into the partition's transaction, say); an exception stops the merge of the
 * partition before its position moves past the record.
 *
 * <p>Threading: called by the thread merging the partition only.
 */
public interface MergeOutput {

    /**
     * The next record of the merged stream. {@code lateAfter} is null in order; otherwise the record's key is below
     * {@code lateAfter}, the last key emitted, and the late policy decides what happens to it.
     *
     * @return whether the record took its place in the output's order; false when it was set aside instead (the
     *     output would refuse it: a timestamp far ahead, too large), and then its key must not become the one later
     *     records are compared with, or one record set aside made every later record late, for good
     */
    boolean emit(int input, Arrival arrival, MergeKey key, MergeKey lateAfter) throws Exception;

    /** A record with no usable event time ({@link Arrival#problem}): a dead letter, or an error that stops. */
    void reject(int input, Arrival arrival) throws Exception;
}
