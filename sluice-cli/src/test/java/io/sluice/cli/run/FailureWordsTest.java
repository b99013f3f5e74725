package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/** The stop line says a failure in words: no class names, and running out of heap as such, with what to change. */
class FailureWordsTest {

    @Test
    void runningOutOfHeapIsSaidInWordsWithTheFix() {
        RuntimeException wrapped = new RuntimeException("partition clicks-2 failed",
                new IllegalStateException(new OutOfMemoryError("Java heap space")));
        String said = EngineRun.describe(wrapped);
        assertTrue(said.startsWith("the JVM ran out of memory (Java heap space); give it more heap"), said);
        assertTrue(said.contains("SLUICE_JAVA_OPTS=-Xmx"), said);
        assertFalse(said.contains("java.lang"), said);
    }

    @Test
    void classNamesThatWrappingPutInMessagesAreLeftOut() {
        IOException io = new IOException("No space left on device");
        RuntimeException failure = new RuntimeException("could not seal clicks/hr=01/clicks+0+7.jsonl.zst",
                new UncheckedIOException(io));
        assertEquals("could not seal clicks/hr=01/clicks+0+7.jsonl.zst: No space left on device",
                EngineRun.describe(failure));
    }

    /**
     * A record that is not JSON: the reason already says what and where, and the parser's own message, with its
     * redacted source and another column, was said after it again (a new user's run).
     */
    @Test
    void aJsonParsersLocationIsNotSaidTwice() throws Exception {
        com.fasterxml.jackson.core.JsonParser parser = new com.fasterxml.jackson.databind.ObjectMapper()
                .createParser("this is not json");
        com.fasterxml.jackson.core.JsonParseException json = org.junit.jupiter.api.Assertions.assertThrows(
                com.fasterxml.jackson.core.JsonParseException.class, parser::nextToken);
        RuntimeException failure = new RuntimeException("clicks-0@7: the value is not JSON: "
                + json.getOriginalMessage() + " at line 1, column 17", json);
        assertEquals(failure.getMessage(), EngineRun.describe(failure));
    }

    /** A target cluster that was down read as a missing topic: the producer's words fit both (found by a chaos run). */
    @Test
    void aTopicNotInMetadataIsSaidToBeAClusterThatDidNotAnswerOrAMissingTopic() {
        RuntimeException failure = new IllegalStateException("the sink failed: big-1 offset 58994 after 1 attempt(s)",
                new IllegalStateException("Topic m12.big not present in metadata after 60000 ms."));
        String said = EngineRun.describe(failure);
        assertTrue(said.endsWith("Topic m12.big not present in metadata after 60000 ms. (no answer about the topic "
                + "from its cluster in that time: the cluster was unreachable or down, or the topic does not exist "
                + "there)"), said);
    }

    /** A cause said in full ends the words: what it wraps (a client's addresses and a wiki's URL) is for --verbose. */
    @Test
    void aCauseSaidInFullEndsTheWords() {
        java.net.ConnectException client = new java.net.ConnectException("Call From vm/127.0.0.1 to localhost:8020 "
                + "failed on connection exception: Connection refused; For more details see: "
                + "http://wiki.apache.org/hadoop/ConnectionRefused");
        RuntimeException failure = new IllegalStateException("open of clicks-0: cannot recover",
                new io.sluice.storage.backend.StoreUnreachableException("the store does not answer (connection "
                        + "refused)", client));
        assertEquals("open of clicks-0: cannot recover: the store does not answer (connection refused)",
                EngineRun.describe(failure));
    }

    /** A chain of causes that loops below the failure (initCause allows one) is said once each, and ends. */
    @Test
    void causesThatLoopBelowTheFailureAreSaidOnce() {
        IllegalStateException failure = new IllegalStateException("cannot write");
        IllegalStateException disk = new IllegalStateException("the disk is full");
        IllegalStateException device = new IllegalStateException("no space left on device");
        failure.initCause(disk);
        disk.initCause(device);
        device.initCause(disk);
        assertEquals("cannot write: the disk is full: no space left on device", EngineRun.describe(failure));
    }
}
