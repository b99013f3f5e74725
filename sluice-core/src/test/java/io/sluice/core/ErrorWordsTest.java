package io.sluice.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** Errors and the libraries' log lines without Java class names (without --verbose). */
class ErrorWordsTest {

    /** An HDFS NameNode's refusal carries its own stack trace in its message: the words keep its first line. */
    @Test
    void aServersStackTraceInAMessageIsLeftOut() {
        String remote = "Permission denied: user=root, access=WRITE, inode=\"/data\":hdfs:supergroup:drwxr-xr-x\n"
                + "\tat org.apache.hadoop.hdfs.server.namenode.FSPermissionChecker.check(FSPermissionChecker.java:506)\n"
                + "\tat org.apache.hadoop.ipc.Server$Handler.run(Server.java:3198)\n"
                + "\t... 12 more";
        assertEquals("cannot write x in hdfs://nn/: Permission denied: user=root, access=WRITE, "
                + "inode=\"/data\":hdfs:supergroup:drwxr-xr-x", ErrorWords.of(new java.io.IOException(
                        "cannot write x in hdfs://nn/: org.apache.hadoop.security.AccessControlException: " + remote)));
        assertEquals("line 1\n  at offset 5 (a word, not a frame)",
                ErrorWords.withoutClassNames("line 1\n  at offset 5 (a word, not a frame)"));
    }

    /** Kafka's producer wraps a failed transaction's cause with its toString(): the class name is not words. */
    @Test
    void anErrorIsSaidInItsWordsWithoutTheClassNamesWrappingPutInIt() {
        KafkaException wrapped = new KafkaException(new TimeoutException("Expiring 53 record(s) for orders-0: 3000 ms "
                + "has passed since batch creation"));
        assertEquals("Expiring 53 record(s) for orders-0: 3000 ms has passed since batch creation",
                ErrorWords.of(wrapped));
        assertEquals("IllegalStateException", ErrorWords.of(new IllegalStateException()));
        assertEquals("the path a.b.Thing stays", ErrorWords.of(new IllegalStateException("the path a.b.Thing stays")));
        assertEquals("Expiring 3 record(s) for com.acme.PaymentError-0", ErrorWords.of(new KafkaException(
                "Expiring 3 record(s) for com.acme.PaymentError-0")), "a topic's name is not a class's");
        assertEquals("KafkaException", ErrorWords.of(new KafkaException(new org.apache.kafka.common.errors
                .WakeupException())), "a message of nothing but a class name: the class's simple name");
        assertEquals("the group rebalanced while the commit was under way, so the coordinator refused it (a partition "
                + "may have moved to another member, which goes on from the last commit)", ErrorWords.of(
                        new org.apache.kafka.clients.consumer.CommitFailedException()),
                "not the client's advice to call poll()");
    }

    /** The client's words for commit failures advise its API ("by calling poll() and then retry"): a new user's run. */
    @Test
    void commitFailuresAreSaidInWordsNotAsAdviceToTheClientsCaller() {
        assertEquals("the group was rebalancing, so the coordinator refused the commit (the partitions' next commit, "
                + "here or at their next owner, goes on from the last one)", ErrorWords.of(
                        new org.apache.kafka.common.errors.RebalanceInProgressException("Offset commit cannot be "
                                + "completed since the consumer is undergoing a rebalance for auto partition "
                                + "assignment. You can try completing the rebalance by calling poll() and then retry "
                                + "the operation.")));
        assertEquals("the commit did not reach the group's coordinator (The coordinator is not available.); the next "
                + "commit carries these offsets again", ErrorWords.of(
                        new org.apache.kafka.clients.consumer.RetriableCommitFailedException(
                                new org.apache.kafka.common.errors.CoordinatorNotAvailableException(
                                        "The coordinator is not available."))));
    }

    @Test
    void classNamesThatWrappingPutInMessagesAreLeftOut() {
        assertEquals("footer is too large", ErrorWords.withoutClassNames("java.lang.RuntimeException: footer is too "
                + "large"));
        assertEquals("at offset 3.5 in file.parquet", ErrorWords.withoutClassNames("at offset 3.5 in file.parquet"),
                "dotted words that are not class names stay");
    }

    @Test
    void aQualifiedExceptionNameIsSaidInWords() {
        assertEquals("[Producer clientId=p] Received invalid metadata error in produce request on partition t-0 due to "
                + "not leader or follower. Going to request metadata update now", ErrorWords.classNamesInWords(
                        "[Producer clientId=p] Received invalid metadata error in produce request on partition t-0 due "
                        + "to org.apache.kafka.common.errors.NotLeaderOrFollowerException. Going to request metadata "
                        + "update now"));
        assertEquals("out of memory: Java heap space", ErrorWords.classNamesInWords("java.lang.OutOfMemoryError: Java "
                + "heap space"));
        assertEquals("offsets t-0=12 and clicks.v2 stay", ErrorWords.classNamesInWords("offsets t-0=12 and clicks.v2 "
                + "stay"), "dotted words that are not class names stay");
        assertEquals("on partition com.acme.PaymentError-0 due to not leader or follower", ErrorWords.classNamesInWords(
                "on partition com.acme.PaymentError-0 due to org.apache.kafka.common.errors"
                + ".NotLeaderOrFollowerException"), "a topic's name is not a class's");
    }

    /**
     * A lone instance paused past the transaction timeout read "There is a newer producer … which fences the current
     * one", where no newer producer existed; a record too large read as the broker's words, with no way on (a chaos
     * run). Inside a wrapper's message too.
     */
    @Test
    void aFencedTransactionAndARecordTooLargeAreSaidWithWhatMayHaveHappenedAndTheWayOn() {
        String fenced = ErrorWords.of(new org.apache.kafka.common.errors.ProducerFencedException("There is a newer "
                + "producer with the same transactionalId which fences the current one."));
        assertEquals("the target cluster fenced this instance's transaction: another instance took over its "
                + "partitions, or the target aborted the open transaction after transaction.timeout.ms while this "
                + "process did not run (paused, or its machine stalled)", fenced);
        org.apache.kafka.common.errors.InvalidProducerEpochException epoch =
                new org.apache.kafka.common.errors.InvalidProducerEpochException("Producer attempted to produce with "
                        + "an old epoch.");
        assertEquals("the sink failed: orders-0 offset 1: " + fenced, ErrorWords.of(new IllegalStateException(
                "the sink failed: orders-0 offset 1: " + epoch.getMessage(), new KafkaException(epoch))));
        String large = ErrorWords.of(new KafkaException("the target cluster did not take a copy: The request included "
                + "a message larger than the max message size the server will accept.",
                new org.apache.kafka.common.errors.RecordTooLargeException("The request included a message larger than "
                        + "the max message size the server will accept.")));
        assertEquals("Timeout of 30000ms expired before the last committed offset for partitions [a-0] could be "
                + "determined.", ErrorWords.of(new TimeoutException("Timeout of 30000ms expired before the last "
                        + "committed offset for partitions [a-0] could be determined. Try tuning default.api.timeout.ms "
                        + "larger to relax the threshold.")), "not the client's advice on a setting the command chose");
        assertEquals("the target cluster did not take a copy: a record is larger than the target takes (the topic's "
                + "max.message.bytes, the brokers' message.max.bytes, or the producer's max.request.size): raise the "
                + "limit above the record's size; every start stops at this record until then", large);
    }

    /** A chain of causes that loops (initCause allows one) is said once, where the walk went round for ever. */
    @Test
    void causesThatLoopAreReadOnce() {
        IllegalStateException outer = new IllegalStateException("the sink failed: inner");
        IllegalStateException inner = new IllegalStateException("inner");
        IllegalStateException innermost = new IllegalStateException("innermost");
        outer.initCause(inner);
        inner.initCause(innermost);
        innermost.initCause(inner);
        assertEquals("the sink failed: inner", ErrorWords.of(outer));
    }
}
